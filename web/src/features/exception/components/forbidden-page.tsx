import { ExceptionResult } from './exception-result';

/** 403: access to the resource is denied. */
export default function ForbiddenPage() {
  return <ExceptionResult status="403" testId="exception-403" />;
}
