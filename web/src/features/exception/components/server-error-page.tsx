import { ExceptionResult } from './exception-result';

/** 500: the server has a problem. */
export default function ServerErrorPage() {
  return <ExceptionResult status="500" testId="exception-500" />;
}
