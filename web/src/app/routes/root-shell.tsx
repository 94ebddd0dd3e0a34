import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useMatches, useNavigation } from 'react-router';
import { progress } from '@/lib/progress';
import type { RouteHandle } from '@/lib/route-meta';

/** The top route: progress bar on navigation and the document title. */
export function RootShell() {
  const navigation = useNavigation();
  const matches = useMatches();
  const { t, i18n } = useTranslation();

  useEffect(() => {
    if (navigation.state === 'idle') progress.done();
    else progress.start();
  }, [navigation.state]);

  const handle = matches[matches.length - 1]?.handle as RouteHandle | undefined;
  const titleKey = handle?.meta.locale;
  useEffect(() => {
    document.title = titleKey ? `${t(titleKey)} - ${t('app.title')}` : t('app.title');
    document.documentElement.lang = i18n.language;
  }, [titleKey, t, i18n.language]);

  return <Outlet />;
}

/** Shown while the first route's guard and code load. */
export function BootFallback() {
  const { t } = useTranslation();
  return <div className="app-boot">{t('app.loading')}</div>;
}
