import { queryOptions, useQuery } from '@tanstack/react-query';
import { notify } from '@/lib/feedback';
import i18n from '@/lib/i18n';
import { postJson } from '@/lib/request';
import type { MenuRoute } from '@/lib/route-meta';
import { useSettingsStore } from '@/stores/settings-store';

export const SERVER_MENU_URL = '/api/user/menu';
const NOTICE_KEY = 'server-menu-notice';

/** POST /api/user/menu: the route tree the caller's role may see. */
export function getServerMenu(): Promise<MenuRoute[]> {
  return postJson<MenuRoute[]>(SERVER_MENU_URL);
}

export const serverMenuQueryOptions = () => queryOptions({ queryKey: ['server-menu'], queryFn: getServerMenu });

export function useServerMenu(enabled: boolean) {
  return useQuery({ ...serverMenuQueryOptions(), enabled });
}

/**
 * Fetch the server menu into the settings store with loading / success / error
 * notifications (§8). Never rejects: on failure the menu stays empty.
 */
export async function loadServerMenu(): Promise<void> {
  notify('info', { key: NOTICE_KEY, title: i18n.t('settings.menuFromServer.loading') });
  try {
    const menu = await getServerMenu();
    useSettingsStore.getState().setServerMenu(Array.isArray(menu) ? menu : []);
    notify('success', { key: NOTICE_KEY, title: i18n.t('settings.menuFromServer.success') });
  } catch {
    notify('error', {
      key: NOTICE_KEY,
      title: i18n.t('settings.menuFromServer.error'),
      description: i18n.t('settings.menuFromServer.errorDetail'),
    });
  }
}
