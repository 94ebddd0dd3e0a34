/**
 * The sign-in calls as plain fetchers, without TanStack Query: the login page loads these
 * (through session-actions) and nothing of the query library. The query options and hooks
 * around them are in login.ts, logout.ts and verify-two-factor.ts.
 *
 * The HTTP client (lib/request.ts with axios, a fifth of the login page's JavaScript) is
 * imported when the first call is made; the login form asks for it earlier, on the first
 * focus or click in it (preloadHttpClient), so it is there by the time the user submits.
 */
import type { ApiSchema, PostAnswer, PostBody } from '@/lib/request';

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

export type LoginCredentials = PostBody<typeof LOGIN_URL>;

/** A session, with the profile and the server's information the first page needs. */
export type LoginResult = ApiSchema<'LoginResponse'>;

/** The password was right but two-factor is on: the code goes to verify2FA with this token. */
export type TwoFactorChallenge = ApiSchema<'PendingLoginResponse'>;

export type LoginAnswer = PostAnswer<typeof LOGIN_URL>;

export type TwoFactorLoginRequest = PostBody<typeof VERIFY_2FA_URL>;

export function isTwoFactorChallenge(answer: LoginAnswer | null | undefined): answer is TwoFactorChallenge {
  return Boolean(answer && 'need_2fa' in answer && answer.need_2fa);
}

/** POST /adminapi/login/login: a session, or a two-factor challenge. */
export function postLogin(credentials: LoginCredentials): Promise<LoginAnswer> {
  return withClient(({ post }) => post(LOGIN_URL, credentials));
}

/** POST /adminapi/login/verify2FA: the second sign-in step; answers like an ordinary login. */
export function postVerifyTwoFactor(body: TwoFactorLoginRequest): Promise<LoginResult> {
  return withClient(({ post }) => post(VERIFY_2FA_URL, body));
}

/** POST /adminapi/login/logout (no body). */
export function postLogout(): Promise<null> {
  return withClient(({ post, LOGOUT_URL }) => post(LOGOUT_URL));
}
