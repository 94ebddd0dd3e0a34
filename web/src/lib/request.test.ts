import {
  AxiosError,
  AxiosHeaders,
  CanceledError,
  type AxiosAdapter,
  type AxiosRequestConfig,
  type InternalAxiosRequestConfig,
} from 'axios';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reloadPage } from './browser';
import { openErrorDialog, showErrorMessage } from './feedback';
import { changeLocale } from './i18n';
import {
  ApiError,
  ERROR_MESSAGE_SECONDS,
  get,
  http,
  LOGOUT_URL,
  post,
  request,
  resetSessionDialogForTests,
  USER_INFO_URL,
} from './request';
import { SESSION_KEYS } from './session';

vi.mock('./feedback', () => ({
  showErrorMessage: vi.fn(),
  openErrorDialog: vi.fn(),
}));
vi.mock('./browser', () => ({ reloadPage: vi.fn() }));

/** The client's core, as `post` and `get` call it: the envelope rules hold for any path. */
const getAny = (url: string, config?: AxiosRequestConfig) => request({ ...config, url, method: 'GET' });
const postAny = (url: string, body?: unknown, config?: AxiosRequestConfig) =>
  request({ ...config, url, method: 'POST', data: body });

let seen: InternalAxiosRequestConfig[] = [];

/** Answer every request with this HTTP status and body, like a real adapter (settle). */
function respond(status: number, body: unknown) {
  const adapter: AxiosAdapter = async (config) => {
    seen.push(config);
    const response = { data: body, status, statusText: String(status), headers: {}, config, request: {} };
    if (status >= 200 && status < 300) return response;
    throw new AxiosError(
      `Request failed with status code ${status}`,
      status >= 500 ? AxiosError.ERR_BAD_RESPONSE : AxiosError.ERR_BAD_REQUEST,
      config,
      {},
      response,
    );
  };
  http.defaults.adapter = adapter;
}

function failTransport(message: string) {
  http.defaults.adapter = async (config) => {
    seen.push(config);
    throw new AxiosError(message, AxiosError.ERR_NETWORK, config, {});
  };
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected the request to fail');
}

function header(config: InternalAxiosRequestConfig, name: string) {
  return AxiosHeaders.from(config.headers).get(name);
}

beforeEach(async () => {
  seen = [];
  vi.clearAllMocks();
  resetSessionDialogForTests();
  await changeLocale('en-US');
});

afterEach(async () => {
  await changeLocale('zh-CN');
});

describe('requests', () => {
  it('go to the site root with credentials, no timeout, and both token headers', async () => {
    localStorage.setItem(SESSION_KEYS.token, 'tok-123');
    respond(200, { code: 20000, msg: 'success', data: { ok: true } });
    await postAny('/adminapi/login/logout');
    const config = seen[0];
    expect(config.baseURL).toBe('/');
    expect(config.url).toBe('/adminapi/login/logout');
    expect(config.withCredentials).toBe(true);
    expect(config.timeout).toBe(0);
    expect(header(config, 'Authorization')).toBe('Bearer tok-123');
    expect(header(config, 'token')).toBe('tok-123');
  });

  it('send no token headers without a session', async () => {
    respond(200, { code: 20000, msg: 'success', data: null });
    await getAny('/adminapi/monitor/overview');
    expect(header(seen[0], 'Authorization')).toBeFalsy();
    expect(header(seen[0], 'token')).toBeFalsy();
  });

  it('send the console locale as Accept-Language', async () => {
    respond(200, { code: 20000, msg: 'success', data: null });
    await getAny('/x');
    expect(header(seen[0], 'Accept-Language')).toBe('en-US');
    await changeLocale('zh-CN');
    await getAny('/x');
    expect(header(seen[1], 'Accept-Language')).toBe('zh-CN');
  });
});

describe('typed calls', () => {
  it('post sends the body as JSON to the path and resolves with the data', async () => {
    respond(200, { code: 20000, msg: 'success', data: { unread: 0 } });
    await expect(post('/adminapi/message/readAll', { type: 'notice' })).resolves.toEqual({ unread: 0 });
    expect(seen[0]).toMatchObject({ method: 'post', url: '/adminapi/message/readAll' });
    expect(JSON.parse(seen[0].data as string)).toEqual({ type: 'notice' });
  });

  it('get sends the query as parameters', async () => {
    respond(200, { code: 20000, msg: 'success', data: [] });
    await get('/api/template/popular/list', { type: 'text' });
    expect(seen[0]).toMatchObject({ method: 'get', url: '/api/template/popular/list', params: { type: 'text' } });
  });
});

describe('envelope rules', () => {
  it('resolve code 20000 with data, silently', async () => {
    respond(200, { code: 20000, msg: 'success', data: { version: '1.0' } });
    await expect(getAny('/adminapi/monitor/overview')).resolves.toEqual({ version: '1.0' });
    expect(showErrorMessage).not.toHaveBeenCalled();
    expect(openErrorDialog).not.toHaveBeenCalled();
  });

  it('show the server msg for 5 s and reject on another code in a 200 body', async () => {
    respond(200, { code: 50000, msg: 'boom', data: null });
    const error = await rejection(getAny('/x'));
    expect(error).toMatchObject({ kind: 'envelope', code: 50000, message: 'boom', status: 200 });
    expect(showErrorMessage).toHaveBeenCalledWith('boom', ERROR_MESSAGE_SECONDS);
    expect(ERROR_MESSAGE_SECONDS).toBe(5);
    expect(openErrorDialog).not.toHaveBeenCalled();
  });

  it("fall back to 'Error' (localised) when msg is empty", async () => {
    respond(200, { code: 50000, msg: '', data: null });
    await rejection(getAny('/x'));
    expect(showErrorMessage).toHaveBeenLastCalledWith('Error', 5);
    await changeLocale('zh-CN');
    await rejection(getAny('/x'));
    expect(showErrorMessage).toHaveBeenLastCalledWith('错误', 5);
  });

  it('read the envelope from an error HTTP status and treat it the same way', async () => {
    respond(401, { code: 40100, msg: 'account or password wrong', data: null });
    const error = await rejection(postAny('/adminapi/login/login', { username: 'a', password: 'b' }));
    expect(error).toMatchObject({ kind: 'envelope', code: 40100, status: 401, message: 'account or password wrong' });
    expect(showErrorMessage).toHaveBeenCalledWith('account or password wrong', 5);
  });

  it('keep the envelope data for callers (validation fields, retry-after)', async () => {
    respond(429, { code: 42900, msg: 'too many attempts', data: { retry_after_seconds: 30 } });
    const error = await rejection(postAny('/adminapi/login/login', {}));
    expect(error.code).toBe(42900);
    expect(error.data).toEqual({ retry_after_seconds: 30 });
    respond(400, { code: 40000, msg: 'username required', data: { fields: { username: 'username required' } } });
    expect((await rejection(postAny('/y', {}))).data).toEqual({ fields: { username: 'username required' } });
  });
});

describe('session-ended codes', () => {
  it.each([
    [200, 50008],
    [401, 50008],
    [401, 50012],
    [401, 50014],
  ])('status %i code %i opens the Confirm logout dialog and rejects', async (status, code) => {
    respond(status, { code, msg: 'session ended', data: null });
    const error = await rejection(getAny('/adminapi/monitor/overview'));
    expect(error.code).toBe(code);
    expect(showErrorMessage).toHaveBeenCalledWith('session ended', 5);
    expect(openErrorDialog).toHaveBeenCalledTimes(1);
    expect(vi.mocked(openErrorDialog).mock.calls[0][0]).toMatchObject({
      title: 'Confirm logout',
      content: 'You have been logged out, you can cancel to stay on this page, or log in again',
      okText: 'Re-Login',
      okCancel: true,
    });
  });

  it('speak Chinese in the dialog under zh-CN', async () => {
    await changeLocale('zh-CN');
    respond(401, { code: 50014, msg: '登录已过期', data: null });
    await rejection(getAny('/x'));
    expect(vi.mocked(openErrorDialog).mock.calls[0][0]).toMatchObject({ title: '确认退出', okText: '重新登录' });
  });

  it('do not open the dialog for the user-info call (the guard logs out instead)', async () => {
    respond(401, { code: 50008, msg: 'token unknown', data: null });
    const error = await rejection(postAny(USER_INFO_URL, { mid: null }));
    expect(error.code).toBe(50008);
    expect(showErrorMessage).toHaveBeenCalledWith('token unknown', 5);
    expect(openErrorDialog).not.toHaveBeenCalled();
  });

  it('do not open a dialog for other error codes', async () => {
    respond(403, { code: 40300, msg: 'no permission', data: null });
    await rejection(getAny('/x'));
    expect(openErrorDialog).not.toHaveBeenCalled();
  });

  it('open only one dialog at a time', async () => {
    respond(401, { code: 50012, msg: 'signed in elsewhere', data: null });
    await Promise.allSettled([getAny('/a'), getAny('/b'), getAny('/c')]);
    expect(openErrorDialog).toHaveBeenCalledTimes(1);
    // Once it has closed, a later expiry opens it again.
    vi.mocked(openErrorDialog).mock.calls[0][0].afterClose?.();
    await rejection(getAny('/d'));
    expect(openErrorDialog).toHaveBeenCalledTimes(2);
  });

  it('Re-Login clears the stored session and reloads the page', async () => {
    localStorage.setItem(SESSION_KEYS.token, 'dead');
    localStorage.setItem(SESSION_KEYS.loginInfo, '{}');
    localStorage.setItem(SESSION_KEYS.loginTime, '1');
    localStorage.setItem(SESSION_KEYS.systemInfo, 'x');
    respond(401, { code: 50008, msg: 'x', data: null });
    await rejection(getAny('/x'));
    seen = [];
    await vi.mocked(openErrorDialog).mock.calls[0][0].onOk?.();
    for (const key of Object.values(SESSION_KEYS)) expect(localStorage.getItem(key)).toBeNull();
    expect(reloadPage).toHaveBeenCalledTimes(1);
    // The server is told too, with the token the console held, and its refusal opens no second dialog.
    expect(seen.map((config) => [config.method, config.url])).toEqual([['post', LOGOUT_URL]]);
    expect(header(seen[0], 'token')).toBe('dead');
    expect(openErrorDialog).toHaveBeenCalledTimes(1);
  });
});

describe('transport errors', () => {
  it('say the server cannot be reached, not the browser\'s "Network Error", when there is no answer', async () => {
    failTransport('Network Error');
    const error = await rejection(getAny('/x'));
    const text = 'Cannot reach the server. Check your network connection and try again.';
    expect(error).toMatchObject({ kind: 'transport', message: text });
    expect(showErrorMessage).toHaveBeenCalledWith(text, 5, 'request-unreachable');
    expect(openErrorDialog).not.toHaveBeenCalled();
  });

  it('say it in one toast when several calls find the server away (one key)', async () => {
    failTransport('Network Error');
    await Promise.all([rejection(getAny('/x')), rejection(getAny('/y'))]);
    const keys = vi.mocked(showErrorMessage).mock.calls.map((call) => call[2]);
    expect(keys).toEqual(['request-unreachable', 'request-unreachable']);
  });

  it('say it in Chinese in the Chinese console', async () => {
    await changeLocale('zh-CN');
    failTransport('Network Error');
    await rejection(getAny('/x'));
    expect(showErrorMessage).toHaveBeenCalledWith('无法连接服务器，请检查网络连接后重试', 5, 'request-unreachable');
  });

  it("treat an error status without an envelope (proxy HTML) as transport: 'Request Error', not axios's words", async () => {
    respond(502, '<html>Bad Gateway</html>');
    const error = await rejection(getAny('/x'));
    expect(error).toMatchObject({ kind: 'transport', status: 502, message: 'Request Error' });
    expect(showErrorMessage).toHaveBeenCalledWith('Request Error', 5);
  });

  it('treat a 200 without an envelope as transport, not success', async () => {
    respond(200, '<!doctype html><title>index</title>');
    const error = await rejection(getAny('/x'));
    expect(error.kind).toBe('transport');
    expect(showErrorMessage).toHaveBeenCalledWith('Request Error', 5);
  });

  it('tell nothing of a request the console called off itself', async () => {
    http.defaults.adapter = async (config) => {
      throw new CanceledError(undefined, config);
    };
    expect((await rejection(getAny('/x'))).kind).toBe('transport');
    expect(showErrorMessage).not.toHaveBeenCalled();
  });
});

describe('quietErrors', () => {
  it('leave the toast to the caller but still reject with the envelope and open the session dialog', async () => {
    respond(401, { code: 40110, msg: 'Verification code is incorrect, please try again', data: null });
    const error = await rejection(postAny('/adminapi/google-auth/enable2FA', {}, { quietErrors: true }));
    expect(error).toMatchObject({ kind: 'envelope', code: 40110 });
    respond(401, { code: 50012, msg: 'ended', data: null });
    await rejection(getAny('/adminapi/google-auth/get2FAStatus', { quietErrors: true }));
    expect(openErrorDialog).toHaveBeenCalledTimes(1);
    failTransport('Network Error');
    expect((await rejection(getAny('/x', { quietErrors: true }))).kind).toBe('transport');
    respond(200, '<html></html>');
    await rejection(getAny('/x', { quietErrors: true }));
    expect(showErrorMessage).not.toHaveBeenCalled();
  });
});

describe('a database switching over (50300)', () => {
  const UNAVAILABLE = { code: 50300, msg: 'the service is briefly unavailable', data: { retry_after_seconds: 2 } };

  /** Answers 503/50300 `times` times, then success. */
  function unavailableThenAnswer(times: number) {
    http.defaults.adapter = async (config) => {
      seen.push(config);
      if (seen.length <= times) {
        const response = { data: UNAVAILABLE, status: 503, statusText: '503', headers: {}, config, request: {} };
        throw new AxiosError('503', AxiosError.ERR_BAD_RESPONSE, config, {}, response);
      }
      return {
        data: { code: 20000, msg: 'success', data: { id: 7 } },
        status: 200,
        statusText: '200',
        headers: {},
        config,
        request: {},
      };
    };
  }

  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends a keyed call again after Retry-After, quietly, with the same key', async () => {
    vi.useFakeTimers();
    unavailableThenAnswer(2);
    const answer = postAny(
      '/adminapi/order/add',
      { account: '13800138000' },
      { headers: { 'Idempotency-Key': 'k-1' } },
    );
    await vi.advanceTimersByTimeAsync(1_999);
    expect(seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2_001);
    await expect(answer).resolves.toEqual({ id: 7 });
    expect(seen.map((config) => header(config, 'Idempotency-Key'))).toEqual(['k-1', 'k-1', 'k-1']);
    expect(showErrorMessage).not.toHaveBeenCalled();
  });

  it('sends a read again, but not a call without a key', async () => {
    vi.useFakeTimers();
    unavailableThenAnswer(1);
    const read = getAny('/adminapi/order/list');
    await vi.advanceTimersByTimeAsync(2_000);
    await expect(read).resolves.toEqual({ id: 7 });
    seen = [];
    unavailableThenAnswer(1);
    const error = await rejection(postAny('/adminapi/order/add', { account: '13800138000' }));
    expect(error).toMatchObject({ kind: 'envelope', code: 50300 });
    expect(seen).toHaveLength(1);
    expect(showErrorMessage).toHaveBeenCalledWith('the service is briefly unavailable', ERROR_MESSAGE_SECONDS);
  });

  it('gives up after five tries more and says so', async () => {
    vi.useFakeTimers();
    unavailableThenAnswer(100);
    const answer = rejection(postAny('/adminapi/order/add', {}, { headers: { 'Idempotency-Key': 'k-2' } }));
    await vi.advanceTimersByTimeAsync(5 * 2_000);
    expect(await answer).toMatchObject({ kind: 'envelope', code: 50300 });
    expect(seen).toHaveLength(6);
    expect(showErrorMessage).toHaveBeenCalledTimes(1);
  });
});
