/**
 * The one HTTP client of the console.
 *
 * - Requests go to the site root with credentials, no timeout, the stored token as
 *   `Authorization: Bearer <token>` and `token: <token>`, and the console locale as
 *   Accept-Language (the server localises `msg` by it).
 * - Every answer is the envelope {code, msg, data}. Code 20000 resolves with `data`.
 *   Any other code — in a 2xx body or in an error status's body — shows the server
 *   msg (or 'Error') for 5 s and rejects with an ApiError of kind 'envelope'.
 * - 50008 / 50012 / 50014 also open one 'Confirm logout' dialog (not for the user-info
 *   call, whose failure the route guard handles by logging out).
 * - A response without an envelope (proxy HTML) is a transport error: 'Request Error' for
 *   5 s and an ApiError of kind 'transport'. No answer at all (server away, network down)
 *   says the server cannot be reached and to check the connection and retry. The browser's
 *   own words ("Network Error", "Request failed with status code 502") never reach the user.
 * - 40341 (the merchant requires two-factor and the user has not set it up) opens the
 *   two-factor page, the one page such a user may use.
 * - 50300 (the server's database is switching over) on a call that is safe to send again, a
 *   read or a call with an `Idempotency-Key`, is sent again after the answer's Retry-After
 *   (a few times, quietly): the server answers the first call's result or does it once.
 */
import axios, { AxiosError, type AxiosRequestConfig, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { ApiError } from './api-error';
import type {
  AnsweredGetPath,
  AnsweredPostPath,
  FileGetPath,
  FilePostPath,
  GetAnswer,
  GetQuery,
  PostAnswer,
  PostBody,
} from './api-paths';
import { openPage, reloadPage } from './browser';
import { IDEMPOTENCY_HEADER } from './idempotency';
import { openErrorDialog, showErrorMessage } from './feedback';
import i18n, { currentLocale } from './i18n';
import { clearSession, getToken } from './session';

export const SUCCESS_CODE = 20000;
export const SESSION_ENDED_CODES: readonly number[] = [50008, 50012, 50014];
/**
 * A money action needs the administrator's two-factor code first (step-up). Not toasted:
 * the money dialogs open the code dialog (components/step-up) and retry.
 */
export const STEP_UP_REQUIRED_CODE = 40340;
/** The merchant requires two-factor of every user and this one has not set it up. */
export const TWO_FACTOR_REQUIRED_CODE = 40341;
export const TWO_FACTOR_PAGE_PATH = '/user/google-auth';
export const USER_INFO_URL = '/adminapi/merchant/userInfo';
export const LOGOUT_URL = '/adminapi/login/logout';
export const ERROR_MESSAGE_SECONDS = 5;
export const UNREACHABLE_TOAST_KEY = 'request-unreachable';
/** The server's database cannot take calls now (a failover): retry shortly. */
export const DATABASE_UNAVAILABLE_CODE = 50300;
/** Sent again at most this often after a 50300: a failover is over within seconds. */
export const UNAVAILABLE_RETRIES = 5;

declare module 'axios' {
  interface AxiosRequestConfig {
    /**
     * The caller shows its own failure message (e.g. the two-factor page's own failure messages), so
     * the client does not toast. Ended sessions still open the 'Confirm logout' dialog.
     */
    quietErrors?: boolean;
    /** How many times this call was sent again after a 50300 (see the module comment). */
    unavailableRetries?: number;
  }
}

export type { ApiSchema, FileGetPath, GetAnswer, GetQuery, PostAnswer, PostBody, PostPath } from './api-paths';

export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

export { ApiError, type ApiErrorKind } from './api-error';

export function isEnvelope(value: unknown): value is Envelope {
  return typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'number';
}

export function isSessionEndedCode(code: number | undefined): boolean {
  return code !== undefined && SESSION_ENDED_CODES.includes(code);
}

function isUserInfoCall(config: AxiosRequestConfig | undefined): boolean {
  return Boolean(config?.url?.includes(USER_INFO_URL));
}

let sessionDialogOpen = false;

/** Open the 'Confirm logout' dialog unless one is already showing. */
export function openSessionEndedDialog(): void {
  if (sessionDialogOpen) return;
  sessionDialogOpen = true;
  openErrorDialog({
    title: i18n.t('request.sessionEnded.title'),
    content: i18n.t('request.sessionEnded.content'),
    okText: i18n.t('request.sessionEnded.relogin'),
    cancelText: i18n.t('request.sessionEnded.cancel'),
    okCancel: true,
    okButtonProps: { 'data-testid': 'session-ended-relogin' } as Record<string, string>,
    cancelButtonProps: { 'data-testid': 'session-ended-cancel' } as Record<string, string>,
    onOk: async () => {
      // End the session on the server too (a token refused for one reason may still be
      // live for another); the local session ends whatever it answers.
      await http.post(LOGOUT_URL, undefined, { quietErrors: true }).catch(() => undefined);
      clearSession();
      reloadPage();
    },
    afterClose: () => {
      sessionDialogOpen = false;
    },
  });
}

/** Only for tests: forget that a dialog is showing. */
export function resetSessionDialogForTests(): void {
  sessionDialogOpen = false;
}

function rejectEnvelope(
  envelope: Envelope,
  config: AxiosRequestConfig | undefined,
  status: number | undefined,
): Promise<never> {
  const message = envelope.msg || i18n.t('request.error');
  if (!config?.quietErrors && envelope.code !== STEP_UP_REQUIRED_CODE) showErrorMessage(message, ERROR_MESSAGE_SECONDS);
  if (isSessionEndedCode(envelope.code) && !isUserInfoCall(config) && !config?.url?.includes(LOGOUT_URL)) {
    openSessionEndedDialog();
  }
  if (envelope.code === TWO_FACTOR_REQUIRED_CODE) openPage(TWO_FACTOR_PAGE_PATH);
  return Promise.reject(new ApiError(message, { kind: 'envelope', code: envelope.code, data: envelope.data, status }));
}

/** The user's words for a failure without an envelope: no answer at all, or not ours. */
export function transportErrorText(answered: boolean): string {
  return i18n.t(answered ? 'request.transportError' : 'request.unreachable');
}

function rejectTransport(answered: boolean, status?: number, config?: AxiosRequestConfig): Promise<never> {
  const text = transportErrorText(answered);
  // The server away fails every call of the page at once: one toast says it, not one a call.
  if (config?.quietErrors) return Promise.reject(new ApiError(text, { kind: 'transport', status }));
  if (answered) showErrorMessage(text, ERROR_MESSAGE_SECONDS);
  else showErrorMessage(text, ERROR_MESSAGE_SECONDS, UNREACHABLE_TOAST_KEY);
  return Promise.reject(new ApiError(text, { kind: 'transport', status }));
}

export function attachRequestHeaders(config: InternalAxiosRequestConfig): InternalAxiosRequestConfig {
  const token = getToken();
  if (token) {
    config.headers.set('Authorization', `Bearer ${token}`);
    config.headers.set('token', token);
  }
  config.headers.set('Accept-Language', currentLocale());
  return config;
}

export function handleResponse(response: AxiosResponse): AxiosResponse | Promise<never> {
  const body: unknown = response.data;
  if (!isEnvelope(body)) return rejectTransport(true, response.status, response.config);
  if (body.code !== SUCCESS_CODE) return rejectEnvelope(body, response.config, response.status);
  return response;
}

/** A read, or a call whose `Idempotency-Key` makes a second sending answer the first one. */
function safeToSendAgain(config: InternalAxiosRequestConfig): boolean {
  return (config.method ?? 'get').toLowerCase() === 'get' || config.headers.has(IDEMPOTENCY_HEADER);
}

/** Sends the call again once the answer's Retry-After (seconds, at most 10) has passed. */
async function sendAgainLater(config: AxiosRequestConfig, data: unknown): Promise<AxiosResponse> {
  const asked = (data as { retry_after_seconds?: unknown } | null)?.retry_after_seconds;
  const seconds = typeof asked === 'number' && asked > 0 ? Math.min(asked, 10) : 2;
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  return http.request({ ...config, unavailableRetries: (config.unavailableRetries ?? 0) + 1 });
}

export function handleResponseError(error: unknown): Promise<AxiosResponse> {
  if (error instanceof ApiError) return Promise.reject(error);
  // Called off by the console itself (the page moved on): nothing went wrong to tell.
  if (axios.isCancel(error))
    return Promise.reject(new ApiError(i18n.t('request.transportError'), { kind: 'transport' }));
  if (axios.isAxiosError(error)) {
    const axiosError = error as AxiosError;
    const body: unknown = axiosError.response?.data;
    if (axiosError.response && isEnvelope(body)) {
      if (body.code === SUCCESS_CODE) {
        // An error status carrying a success code is not a success we can trust.
        return rejectTransport(true, axiosError.response.status, axiosError.config);
      }
      const config = axiosError.config;
      if (
        body.code === DATABASE_UNAVAILABLE_CODE &&
        config &&
        (config.unavailableRetries ?? 0) < UNAVAILABLE_RETRIES &&
        safeToSendAgain(config)
      ) {
        return sendAgainLater(config, body.data);
      }
      return rejectEnvelope(body, axiosError.config, axiosError.response.status);
    }
    return rejectTransport(Boolean(axiosError.response), axiosError.response?.status, axiosError.config);
  }
  return rejectTransport(false);
}

export const http = axios.create({
  baseURL: '/',
  withCredentials: true,
  timeout: 0,
});

// Synchronous (it only reads the token and the language): axios then sends the request
// from the caller's own call instead of a promise turn later, behind whatever the page
// does next (after sign-in, React rendering the console).
http.interceptors.request.use(attachRequestHeaders, undefined, { synchronous: true });
http.interceptors.response.use(handleResponse, handleResponseError);

/** Send a request and resolve with the envelope's `data`. */
export async function request<T>(config: AxiosRequestConfig): Promise<T> {
  const response = await http.request<Envelope<T>>(config);
  return response.data.data;
}

/**
 * The body argument of `post`: left out (or an empty object, which some calls send) when the
 * path takes none, optional when it may.
 */
type BodyArgs<Body> = [Body] extends [undefined]
  ? [body?: Record<string, never>, config?: AxiosRequestConfig]
  : undefined extends Body
    ? [body?: Body, config?: AxiosRequestConfig]
    : [body: Body, config?: AxiosRequestConfig];

/** The query argument of `get`, likewise. */
type QueryArgs<Query> = [Query] extends [undefined]
  ? [query?: undefined, config?: AxiosRequestConfig]
  : [query?: Query, config?: AxiosRequestConfig];

/**
 * POST a JSON body to a path of the server's document; resolves with the answer's `data`.
 * The path, the body and the answer are the document's (lib/api-paths).
 */
export function post<P extends AnsweredPostPath>(
  path: P,
  ...[body, config]: BodyArgs<PostBody<P>>
): Promise<PostAnswer<P>> {
  return request<PostAnswer<P>>({ ...config, url: path, method: 'POST', data: body });
}

/** GET a path of the server's document with its query parameters; resolves with `data`. */
export function get<P extends AnsweredGetPath>(
  path: P,
  ...[query, config]: QueryArgs<GetQuery<P>>
): Promise<GetAnswer<P>> {
  return request<GetAnswer<P>>({ ...config, url: path, method: 'GET', params: query ?? config?.params });
}

/**
 * POST multipart form data (an upload) to a path of the server's document; axios sets the
 * boundary. Resolves with the answer's `data` as the document declares it.
 */
export function postForm<P extends AnsweredPostPath>(
  path: P,
  form: FormData,
  config?: AxiosRequestConfig,
): Promise<PostAnswer<P>> {
  return request<PostAnswer<P>>({ ...config, url: path, method: 'POST', data: form });
}

/**
 * Binary answers (e.g. the avatar image) are not envelopes. Their failures come as an
 * envelope inside a Blob: a session-ended code is handled like any call (toast and the
 * 'Confirm logout' dialog); anything else (a 404 for "no image") rejects quietly, since
 * the caller shows the absence itself.
 */
export const binaryHttp = axios.create({ baseURL: '/', withCredentials: true, timeout: 0, responseType: 'blob' });
binaryHttp.interceptors.request.use(attachRequestHeaders, undefined, { synchronous: true });

async function envelopeOfBlob(body: unknown): Promise<Envelope | null> {
  if (!(body instanceof Blob)) return isEnvelope(body) ? body : null;
  try {
    const parsed: unknown = JSON.parse(await body.text());
    return isEnvelope(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** GET a file (a path whose answer the document declares as a file or an image). */
export function getBlob(path: FileGetPath, config?: AxiosRequestConfig): Promise<Blob> {
  return blobRequest({ ...config, url: path, method: 'GET' });
}

/** POST `body` as JSON for a file (what must not travel in an address, like a password). */
export function postBlob<P extends FilePostPath>(
  path: P,
  body: PostBody<P>,
  config?: AxiosRequestConfig,
): Promise<Blob> {
  return blobRequest({ ...config, url: path, method: 'POST', data: body });
}

async function blobRequest(config: AxiosRequestConfig): Promise<Blob> {
  try {
    const response = await binaryHttp.request<Blob>(config);
    return response.data;
  } catch (error) {
    const response = axios.isAxiosError(error) ? error.response : undefined;
    const envelope = await envelopeOfBlob(response?.data);
    if (envelope && isSessionEndedCode(envelope.code))
      return rejectEnvelope(envelope, response?.config, response?.status);
    const message = envelope?.msg || transportErrorText(Boolean(response));
    throw new ApiError(message, {
      kind: envelope ? 'envelope' : 'transport',
      code: envelope?.code,
      data: envelope?.data,
      status: response?.status,
    });
  }
}
