import { queryOptions, useQuery } from '@tanstack/react-query';
import { notify } from '@/lib/feedback';
import i18n from '@/lib/i18n';
import { type ApiSchema, post } from '@/lib/request';
import type { MenuRoute, RoleRule } from '@/lib/route-meta';
import { useSettingsStore } from '@/stores/settings-store';

export const SERVER_MENU_URL = '/api/user/menu';
const NOTICE_KEY = 'server-menu-notice';

const isRoleRule = (role: string): role is RoleRule => role === '*' || role === 'admin' || role === 'user';

/** A server menu entry as a node of the console's route tree (a role it does not know matches no one). */
export function toMenuRoute(entry: ApiSchema<'MenuEntry'>): MenuRoute {
  const { icon, order, roles, ...meta } = entry.meta;
  return {
    path: entry.path,
    name: entry.name,
    meta: { ...meta, icon: icon ?? undefined, order: order ?? undefined, roles: roles.filter(isRoleRule) },
    children: (entry.children ?? []).map(toMenuRoute),
  };
}

/** POST /api/user/menu: the route tree the caller's role may see. */
export function getServerMenu(): Promise<MenuRoute[]> {
  return post(SERVER_MENU_URL).then((menu) => (Array.isArray(menu) ? menu.map(toMenuRoute) : []));
}

export const serverMenuQueryOptions = () => queryOptions({ queryKey: ['server-menu'], queryFn: getServerMenu });

export function useServerMenu(enabled: boolean) {
  return useQuery({ ...serverMenuQueryOptions(), enabled });
}

/**
 * Fetch the server menu into the settings store with loading / success / error
 * notifications. Never rejects: on failure the menu stays empty.
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
