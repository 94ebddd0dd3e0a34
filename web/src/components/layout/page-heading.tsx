import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';
import type { RouteHandle } from '@/lib/route-meta';

/**
 * The page's one top-level heading, its menu title: read by screen readers (a page is found
 * and named by its h1) and hidden on screen, where the menu, tabs and cards already say it.
 */
export function PageHeading() {
  const { t } = useTranslation();
  const matches = useMatches();
  const handle = matches[matches.length - 1]?.handle as RouteHandle | undefined;
  const titleKey = handle?.meta.locale;
  return (
    <h1 className="visually-hidden" data-testid="page-heading">
      {titleKey ? t(titleKey) : t('app.title')}
    </h1>
  );
}
