import { beforeEach, describe, expect, it, vi } from 'vitest';
import { post as postAt } from '@/lib/request';
import { onSessionCleared, SESSION_KEYS } from '@/lib/session';
import { useSettingsStore } from '@/stores/settings-store';
import { useTabBarStore } from '@/stores/tab-bar-store';
import { useUserStore } from '@/stores/user-store';
import { LOGIN_URL } from './api/login';
import { LOGOUT_URL } from './api/logout';
import { VERIFY_2FA_URL } from './api/verify-two-factor';
import { login, logout, verifyTwoFactorLogin } from './session-actions';

vi.mock('@/lib/request', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/request')>()),
  post: vi.fn(),
}));
const post = vi.mocked(postAt);

const loginResult = {
  token: 'new-token',
  loginfo: { user_id: 2, username: 'merchant', role: 'user' as const, mid: 10001 },
  expires_at: '2030-01-01T00:00:00Z',
};

function seedSession() {
  localStorage.setItem(SESSION_KEYS.token, 'old-token');
  localStorage.setItem(SESSION_KEYS.loginTime, '123');
  localStorage.setItem(SESSION_KEYS.loginInfo, JSON.stringify(loginResult.loginfo));
  localStorage.setItem(SESSION_KEYS.systemInfo, '{"name":"x"}');
  useUserStore.getState().setUserInfo({ name: 'Merchant', role: 'user' });
  useSettingsStore.getState().setServerMenu([{ path: '/dashboard', name: 'dashboard' }]);
  useTabBarStore.getState().openTab({ name: 'OrderList', titleKey: 'menu.order.list', fullPath: '/order/list' });
}

function expectSessionCleared() {
  for (const key of Object.values(SESSION_KEYS)) expect(localStorage.getItem(key)).toBeNull();
  expect(useUserStore.getState()).toMatchObject({ role: '', info: {} });
  expect(useSettingsStore.getState().serverMenu).toEqual([]);
  expect(useTabBarStore.getState().tabs.map((tab) => tab.name)).toEqual(['Workplace']);
}

beforeEach(() => {
  post.mockReset();
  useUserStore.getState().resetUser();
});

describe('login', () => {
  it('stores token, login time and login info', async () => {
    post.mockResolvedValueOnce(loginResult);
    const before = Date.now();
    await expect(login({ username: 'merchant', password: 'Merchant123' })).resolves.toEqual(loginResult);
    expect(post).toHaveBeenCalledWith(LOGIN_URL, { username: 'merchant', password: 'Merchant123' });
    expect(localStorage.getItem(SESSION_KEYS.token)).toBe('new-token');
    expect(JSON.parse(localStorage.getItem(SESSION_KEYS.loginInfo)!)).toEqual(loginResult.loginfo);
    expect(Number(localStorage.getItem(SESSION_KEYS.loginTime))).toBeGreaterThanOrEqual(before);
  });

  it('stores the profile and the system information the answer brings', async () => {
    const user = { name: 'Merchant', username: 'merchant', role: 'user' as const, mid: 10001, hasAvatar: false };
    const system = { name: 'backoffice', version: '1', timeZone: 'Asia/Shanghai', features: { templatePages: false } };
    post.mockResolvedValueOnce({ ...loginResult, user, system });
    await login({ username: 'merchant', password: 'Merchant123' });
    expect(useUserStore.getState()).toMatchObject({ role: 'user', info: user });
    expect(JSON.parse(localStorage.getItem(SESSION_KEYS.systemInfo)!)).toEqual(system);
  });

  it('clears the stored token and rethrows when it fails', async () => {
    localStorage.setItem(SESSION_KEYS.token, 'stale');
    const failure = new Error('account or password wrong');
    post.mockRejectedValueOnce(failure);
    await expect(login({ username: 'merchant', password: 'bad' })).rejects.toBe(failure);
    expect(localStorage.getItem(SESSION_KEYS.token)).toBeNull();
  });
});

describe('sign-in with two-factor on', () => {
  const challenge = { need_2fa: true, pending_token: 'pending', expires_at: '2030-01-01T00:00:00Z' };

  it('the password step stores no session when the server asks for a code', async () => {
    localStorage.setItem(SESSION_KEYS.token, 'stale');
    post.mockResolvedValueOnce(challenge);
    await expect(login({ username: 'admin', password: 'Admin123' })).resolves.toEqual(challenge);
    for (const key of [SESSION_KEYS.token, SESSION_KEYS.loginInfo, SESSION_KEYS.loginTime]) {
      expect(localStorage.getItem(key)).toBeNull();
    }
  });

  it('verify2FA stores the session exactly as an ordinary login', async () => {
    useUserStore.getState().setUserInfo({ name: 'old', role: 'user' });
    post.mockResolvedValueOnce(loginResult);
    await expect(verifyTwoFactorLogin({ pending_token: 'pending', code: '123456' })).resolves.toEqual(loginResult);
    expect(post).toHaveBeenCalledWith(VERIFY_2FA_URL, { pending_token: 'pending', code: '123456' });
    expect(localStorage.getItem(SESSION_KEYS.token)).toBe('new-token');
    expect(JSON.parse(localStorage.getItem(SESSION_KEYS.loginInfo)!)).toEqual(loginResult.loginfo);
    expect(localStorage.getItem(SESSION_KEYS.loginTime)).toBeTruthy();
    expect(useUserStore.getState().role).toBe('');
  });

  it('a refused code stores nothing and rethrows', async () => {
    const failure = new Error('Verification code is incorrect, please try again');
    post.mockRejectedValueOnce(failure);
    await expect(verifyTwoFactorLogin({ pending_token: 'pending', code: '000000' })).rejects.toBe(failure);
    expect(localStorage.getItem(SESSION_KEYS.token)).toBeNull();
  });
});

describe('logout', () => {
  it('calls the server and clears the session, user info, server menu and tabs', async () => {
    seedSession();
    post.mockResolvedValueOnce(null);
    await logout();
    expect(post).toHaveBeenCalledWith(LOGOUT_URL);
    expectSessionCleared();
  });

  it('clears everything even when the logout call fails', async () => {
    seedSession();
    post.mockRejectedValueOnce(new Error('Network Error'));
    await expect(logout()).resolves.toBeUndefined();
    expectSessionCleared();
  });

  it('tells session listeners (the server-data cache) that the session ended', async () => {
    const listener = vi.fn();
    const unsubscribe = onSessionCleared(listener);
    post.mockResolvedValueOnce(null);
    await logout();
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
  });
});
