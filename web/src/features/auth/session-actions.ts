/**
 * Login and logout as §4 describes them.
 * - login stores token, login time and login info; a failed login clears the token and rethrows.
 * - logout clears the token, login info, login time and system info even if the call fails,
 *   and resets user info, the server menu and the tabs (clearing the session also empties
 *   the server-state cache, see lib/query-client).
 */
import { clearSession, clearToken, saveSession } from '@/lib/session';
import { useSettingsStore } from '@/stores/settings-store';
import { useTabBarStore } from '@/stores/tab-bar-store';
import { useUserStore } from '@/stores/user-store';
import { postLogin, type LoginCredentials, type LoginResult } from './api/login';
import { postLogout } from './api/logout';

export async function login(credentials: LoginCredentials): Promise<LoginResult> {
  try {
    const result = await postLogin(credentials);
    saveSession(result.token, result.loginfo);
    // Role and profile are loaded by the route guard on the next navigation.
    useUserStore.getState().resetUser();
    return result;
  } catch (error) {
    clearToken();
    throw error;
  }
}

/** Resolves even when the server call fails (the request client has shown why). */
export async function logout(): Promise<void> {
  try {
    await postLogout();
  } catch {
    // The local session ends regardless.
  } finally {
    clearSession();
    useUserStore.getState().resetUser();
    useSettingsStore.getState().clearServerMenu();
    useTabBarStore.getState().closeAll();
  }
}
