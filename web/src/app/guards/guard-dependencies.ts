/**
 * Wires the pure guard logic to the session, the stores and the feature APIs. Feature code
 * used only by some routes is imported on demand; the loaders every first page needs are
 * imported here, with the console's start (app-start), which the login page does not load.
 * Through `import()` they were chunks of their own, fetched after sign-in.
 */
import { loadUserInfo } from '@/features/user/api/get-user-info';
import { ERROR_MESSAGE_SECONDS } from '@/lib/request';
import { showErrorMessage } from '@/lib/feedback';
import i18n, { currentLocale } from '@/lib/i18n';
import { hasToken } from '@/lib/session';
import { loadAppTexts } from '@/locales/app-texts';
import { useSettingsStore } from '@/stores/settings-store';
import { useUserStore } from '@/stores/user-store';
import { APP_ROUTES } from '../routes/route-table';
import type { GuardDependencies } from './route-access';
import { loadSystemInfo } from './system-info-loader';

export const guardDependencies: GuardDependencies = {
  hasToken,
  getRole: () => useUserStore.getState().role,
  getMerchantRole: () => useUserStore.getState().merchantRole,
  loadUserInfo,
  logout: async () => (await import('@/features/auth/session-actions')).logout(),
  isMenuFromServer: () => useSettingsStore.getState().menuFromServer,
  getServerMenu: () => useSettingsStore.getState().serverMenu,
  loadServerMenu: async () => (await import('@/features/menu/api/get-server-menu')).loadServerMenu(),
  appRoutes: APP_ROUTES,
  loadSystemInfo,
  mustChangePassword: () => useUserStore.getState().info.mustChangePassword === true,
  mustSetUpTwoFactor: () => useUserStore.getState().info.mustSetUpTwoFactor === true,
  // On a deep link the guard runs before the console's texts may have arrived.
  tellForbidden: () => {
    void loadAppTexts(currentLocale())
      .catch(() => undefined)
      .then(() => showErrorMessage(i18n.t('exception.noPermission'), ERROR_MESSAGE_SECONDS));
  },
};
