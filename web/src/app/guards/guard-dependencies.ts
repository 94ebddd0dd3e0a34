/**
 * Wires the pure guard logic to the session, the stores and the feature APIs.
 * Feature code is imported on demand so the login page does not load it.
 */
import { hasToken } from '@/lib/session';
import { useSettingsStore } from '@/stores/settings-store';
import { useUserStore } from '@/stores/user-store';
import { APP_ROUTES } from '../routes/route-table';
import type { GuardDependencies } from './route-access';

const getRole = () => useUserStore.getState().role;

export const guardDependencies: GuardDependencies = {
  hasToken,
  getRole,
  loadUserInfo: async () => {
    const { loadUserInfo } = await import('@/features/user/api/get-user-info');
    // Right after sign-in the console has asked already (app-start): its answer may have
    // arrived while the import above resolved, and asking again would be a second call.
    if (!getRole()) await loadUserInfo();
  },
  logout: async () => (await import('@/features/auth/session-actions')).logout(),
  isMenuFromServer: () => useSettingsStore.getState().menuFromServer,
  getServerMenu: () => useSettingsStore.getState().serverMenu,
  loadServerMenu: async () => (await import('@/features/menu/api/get-server-menu')).loadServerMenu(),
  appRoutes: APP_ROUTES,
  loadSystemInfo: async () => (await import('./system-info-loader')).loadSystemInfo(),
  mustChangePassword: () => useUserStore.getState().info.mustChangePassword === true,
};
