/**
 * The sign-in calls as plain fetchers, without TanStack Query: the login page loads these
 * (through session-actions) and nothing of the query library. The query options and hooks
 * around them are in login.ts, logout.ts and verify-two-factor.ts.
 *
 * The HTTP client (lib/request.ts with axios, a fifth of the login page's JavaScript) is
 * imported when the first call is made; the login form asks for it earlier, on the first
 * focus or click in it (preloadHttpClient), so it is there by the time the user submits.
 */
import type { PostBody } from '@/lib/request';
import type { LoginInfo } from '@/lib/session';
import type { SystemInfo } from '@/lib/system-info';
import type { UserInfo } from '@/stores/user-store';

export const LOGIN_URL = '/adminapi/login/login';
export const VERIFY_2FA_URL = '/adminapi/login/verify2FA';

type HttpClient = typeof import('@/lib/request');
let loadedClient: HttpClient | undefined;
const httpClient = () => import('@/lib/request').then((client) => (loadedClient = client));

/** Loads the HTTP client ahead of the first call (failures are left to that call). */
export function preloadHttpClient(): void {
  if (!loadedClient) httpClient().catch(() => undefined);
}

/**
 * Runs `send` with the HTTP client: at once when it is loaded (it is, after the form's first
 * focus), so the request leaves from the submit itself. Through `import()` even a loaded
 * module comes a task later, behind the form's re-render and anything else queued (6-10 ms
 * after the submit in most sign-ins, 74 ms in one).
 */
function withClient<T>(send: (client: HttpClient) => Promise<T>): Promise<T> {
  return loadedClient ? send(loadedClient) : httpClient().then(send);
}

export interface LoginCredentials {
  username: string;
  password: string;
}

export interface LoginResult {
  token: string;
  loginfo: LoginInfo;
  expires_at: string;
  /** The profile, as userInfo answers it: the first page after sign-in needs no call for it. */
  user?: UserInfo;
  /** The server's information, as /api/system/info answers it. */
  system?: SystemInfo;
}

/** The password was right but two-factor is on: the code goes to verify2FA with this token. */
export interface TwoFactorChallenge {
  need_2fa: true;
  pending_token: string;
  expires_at: string;
}

export type LoginAnswer = LoginResult | TwoFactorChallenge;

export interface TwoFactorLoginRequest {
  pending_token: string;
  /** A 6-digit authenticator code or an 8-digit backup code. */
  code: string;
}

export function isTwoFactorChallenge(answer: LoginAnswer | null | undefined): answer is TwoFactorChallenge {
  return Boolean(answer && (answer as Partial<TwoFactorChallenge>).need_2fa === true);
}

/** POST /adminapi/login/login: a session, or a two-factor challenge. */
export function postLogin(credentials: LoginCredentials): Promise<LoginAnswer> {
  return withClient(({ postJson }) =>
    postJson<LoginAnswer>(LOGIN_URL, credentials satisfies PostBody<typeof LOGIN_URL>),
  );
}

/** POST /adminapi/login/verify2FA: the second sign-in step; answers like an ordinary login. */
export function postVerifyTwoFactor(body: TwoFactorLoginRequest): Promise<LoginResult> {
  return withClient(({ postJson }) => postJson<LoginResult>(VERIFY_2FA_URL, body));
}

/** POST /adminapi/login/logout (no body). */
export function postLogout(): Promise<null> {
  return withClient(({ postJson, LOGOUT_URL }) => postJson<null>(LOGOUT_URL));
}
