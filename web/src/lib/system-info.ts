/**
 * The server's system information (`system_info`): name, version, time zone and
 * feature flags. Sign-in stores it with the session (the server sends it along); the route
 * guard fetches it when it is missing (a session older than that). Kept in localStorage
 * until logout clears it with the rest of the session (lib/session).
 */
import type { ApiSchema } from './api-paths';
import { get } from './request';
import { SESSION_KEYS, saveSystemInfo } from './session';

export const SYSTEM_INFO_URL = '/api/system/info';

export type SystemInfo = ApiSchema<'SystemInfo'>;

export function getSystemInfo(): SystemInfo | null {
  const raw = localStorage.getItem(SESSION_KEYS.systemInfo);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as SystemInfo;
    return parsed && typeof parsed === 'object' && parsed.features ? parsed : null;
  } catch {
    return null;
  }
}

/** Whether the server serves the template and demo pages (`--template-pages`). */
export function templatePagesOn(info: SystemInfo | null = getSystemInfo()): boolean {
  return info?.features?.templatePages === true;
}

/** The request under way, shared by every caller until it settles. */
let asking: Promise<void> | null = null;

/**
 * Fetch and store the system information unless this session has it. Never rejects: without
 * it the optional sections stay hidden (the real product does not depend on it). Callers
 * while a request is out share it: after sign-in the console asks before its route guard
 * does (app/app-start), and the guard then waits for that answer instead of asking again.
 */
export function ensureSystemInfo(): Promise<void> {
  if (getSystemInfo()) return Promise.resolve();
  asking ??= get(SYSTEM_INFO_URL, undefined, { quietErrors: true })
    .then((info) => {
      if (info && typeof info === 'object') saveSystemInfo(info);
    })
    // Asked again on the next navigation.
    .catch(() => undefined)
    .finally(() => {
      asking = null;
    });
  return asking;
}
