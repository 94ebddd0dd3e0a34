/**
 * The browser-side session: what login stores in localStorage.
 * Keys are fixed by the spec: token, loginTime, loginfo (JSON), system_info.
 */

import type { ApiSchema } from './api-paths';
import { setShellHint, SIGNED_IN_COOKIE } from './shell-hints';
import type { SystemInfo } from './system-info';

export const SESSION_KEYS = {
  token: 'token',
  loginTime: 'loginTime',
  loginInfo: 'loginfo',
  systemInfo: 'system_info',
} as const;

export type Role = ApiSchema<'Role'>;

/** What the server returns as `loginfo` on a successful login. */
export type LoginInfo = ApiSchema<'LoginInfo'>;

export function getToken(): string | null {
  return localStorage.getItem(SESSION_KEYS.token);
}

export function hasToken(): boolean {
  return Boolean(getToken());
}

export function setToken(token: string): void {
  localStorage.setItem(SESSION_KEYS.token, token);
  setShellHint(SIGNED_IN_COOKIE, '1');
}

export function clearToken(): void {
  localStorage.removeItem(SESSION_KEYS.token);
  setShellHint(SIGNED_IN_COOKIE, null);
}

/** Bring the server's first-page hint in line with the stored session (lib/shell-hints). */
export function syncSignedInHint(): void {
  setShellHint(SIGNED_IN_COOKIE, hasToken() ? '1' : null);
}

export function getLoginInfo(): LoginInfo | null {
  const raw = localStorage.getItem(SESSION_KEYS.loginInfo);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as LoginInfo;
  } catch {
    return null;
  }
}

/** Store everything a successful login returns. */
export function saveSession(token: string, loginInfo: LoginInfo, now: Date = new Date()): void {
  setToken(token);
  localStorage.setItem(SESSION_KEYS.loginTime, String(now.getTime()));
  localStorage.setItem(SESSION_KEYS.loginInfo, JSON.stringify(loginInfo));
}

/**
 * Store the server's information (lib/system-info reads it). Here rather than there so that
 * sign-in, which receives it with the session, stores it without loading the HTTP client.
 */
export function saveSystemInfo(info: SystemInfo): void {
  localStorage.setItem(SESSION_KEYS.systemInfo, JSON.stringify(info));
}

type SessionClearedListener = () => void;
const sessionClearedListeners = new Set<SessionClearedListener>();

/** Be told when the session ends (e.g. to drop cached server data). Returns an unsubscribe. */
export function onSessionCleared(listener: SessionClearedListener): () => void {
  sessionClearedListeners.add(listener);
  return () => sessionClearedListeners.delete(listener);
}

/** Remove every session key; used by logout whatever the server answered. */
export function clearSession(): void {
  Object.values(SESSION_KEYS).forEach((key) => localStorage.removeItem(key));
  setShellHint(SIGNED_IN_COOKIE, null);
  sessionClearedListeners.forEach((listener) => listener());
}
