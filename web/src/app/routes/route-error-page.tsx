import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { reloadPage } from '@/lib/browser';

/** Unexpected errors while loading a route (e.g. a page's code failed to download). */
export function RouteErrorPage() {
  const error = useRouteError();
  const { t } = useTranslation();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : undefined;
  return (
    <div className="app-boot app-boot--error" role="alert" data-testid="route-error">
      <strong>{t('exception.500.description')}</strong>
      {detail ? <span>{detail}</span> : null}
      <button type="button" className="plain-button plain-button--primary" onClick={reloadPage}>
        {t('common.retry')}
      </button>
    </div>
  );
}
