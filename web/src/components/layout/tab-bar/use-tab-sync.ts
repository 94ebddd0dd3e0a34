import { useEffect } from 'react';
import { useLocation, useMatches } from 'react-router';
import type { RouteHandle } from '@/lib/route-meta';
import { useTabBarStore } from '@/stores/tab-bar-store';

/** Opens (or updates) a tab for every page the user visits, except untabbed routes. */
export function useTabSync(): void {
  const matches = useMatches();
  const location = useLocation();
  const openTab = useTabBarStore((state) => state.openTab);
  const handle = matches[matches.length - 1]?.handle as RouteHandle | undefined;

  useEffect(() => {
    if (!handle || handle.meta.noTab || !handle.meta.locale) return;
    openTab({ name: handle.name, titleKey: handle.meta.locale, fullPath: location.pathname + location.search });
  }, [handle, location.pathname, location.search, openTab]);
}
