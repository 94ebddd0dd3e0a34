/**
 * Login and logout: storing and clearing the session, the menu and the user's state.
 * - login stores token, login time and login info, and the profile and system information
 *   the server sends with them; a failed login clears the token and rethrows.
 *   With two-factor on, the session is stored only after the second step (verify2FA).
 * - logout clears the token, login info, login time and system info even if the call fails,
 *   and resets user info, the server menu and the tabs (clearing the session also empties
 *   the server-state cache, see lib/query-client).
 */
import { clearMessages } from '@/lib/feedback';
import { clearSession, clearToken, saveSession, saveSystemInfo } from '@/lib/session';
import { useSettingsStore } from '@/stores/settings-store';
import { useTabBarStore } from '@/stores/tab-bar-store';
import { useUserStore } from '@/stores/user-store';
import {
  isTwoFactorChallenge,
  postLogin,
  postLogout,
  postVerifyTwoFactor,
  type LoginAnswer,
  type LoginCredentials,
  type LoginResult,
  type TwoFactorLoginRequest,
} from './api/sign-in-requests';

function storeLogin(result: LoginResult): void {
  saveSession(result.token, result.loginfo);
  // Earlier failures ("account or password wrong") are answered now.
  clearMessages();
  useUserStore.getState().resetUser();
  // The profile (with the role) and the server's information come with the session, so the
  // route guard has what it needs without a call of its own (it loads whatever is missing).
  if (result.user) useUserStore.getState().setUserInfo(result.user);
  if (result.system) saveSystemInfo(result.system);
}

/**
 * Sign in with username and password. With two-factor on, the server answers a challenge
 * instead of a session: nothing is stored and the caller asks for the code
 * (verifyTwoFactorLogin).
 */
export async function login(credentials: LoginCredentials): Promise<LoginAnswer> {
  try {
    const answer = await postLogin(credentials);
    if (isTwoFactorChallenge(answer)) {
      clearToken();
      return answer;
    }
    storeLogin(answer);
    return answer;
  } catch (error) {
    clearToken();
    throw error;
  }
}

/** The second sign-in step: on success the session is stored exactly as by login. */
export async function verifyTwoFactorLogin(request: TwoFactorLoginRequest): Promise<LoginResult> {
  try {
    const result = await postVerifyTwoFactor(request);
    storeLogin(result);
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
