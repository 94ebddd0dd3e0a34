import { AxiosError, AxiosHeaders, type AxiosAdapter, type InternalAxiosRequestConfig } from 'axios';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AVATAR_URL, getAvatar } from './avatar';
import { openErrorDialog, showErrorMessage } from './feedback';
import { ApiError, binaryHttp, getBlob, resetSessionDialogForTests } from './request';
import { setToken } from './session';

vi.mock('./feedback', () => ({ showErrorMessage: vi.fn(), openErrorDialog: vi.fn() }));
vi.mock('./browser', () => ({ reloadPage: vi.fn() }));

let seen: InternalAxiosRequestConfig[] = [];

function respond(status: number, body: Blob) {
  const adapter: AxiosAdapter = async (config) => {
    seen.push(config);
    const response = { data: body, status, statusText: String(status), headers: {}, config, request: {} };
    if (status < 300) return response;
    throw new AxiosError(`Request failed with status code ${status}`, AxiosError.ERR_BAD_REQUEST, config, {}, response);
  };
  binaryHttp.defaults.adapter = adapter;
}

const envelopeBlob = (code: number, msg: string) =>
  new Blob([JSON.stringify({ code, msg, data: null })], { type: 'application/json' });

beforeEach(() => {
  seen = [];
  vi.mocked(showErrorMessage).mockReset();
  vi.mocked(openErrorDialog).mockReset();
  resetSessionDialogForTests();
});
afterEach(() => {
  binaryHttp.defaults.adapter = undefined;
});

describe('binary answers (the avatar)', () => {
  it('fetch the bytes with the session headers', async () => {
    setToken('tok');
    const image = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' });
    respond(200, image);
    const blob = await getAvatar();
    expect(blob).toBe(image);
    const headers = AxiosHeaders.from(seen[0].headers);
    expect(seen[0].url).toBe(AVATAR_URL);
    expect(seen[0].responseType).toBe('blob');
    expect(headers.get('Authorization')).toBe('Bearer tok');
    expect(headers.get('token')).toBe('tok');
  });

  it('treat "no avatar" (404) as null, without a toast', async () => {
    respond(404, envelopeBlob(40400, 'not found'));
    expect(await getAvatar()).toBeNull();
    expect(showErrorMessage).not.toHaveBeenCalled();
  });

  it('still end the session on 50008/50012/50014', async () => {
    respond(401, envelopeBlob(50012, 'session ended'));
    await expect(getBlob(AVATAR_URL)).rejects.toBeInstanceOf(ApiError);
    expect(showErrorMessage).toHaveBeenCalledWith('session ended', 5);
    expect(openErrorDialog).toHaveBeenCalledTimes(1);
  });

  it('reject other failures quietly with what the server said', async () => {
    respond(500, envelopeBlob(50000, 'internal'));
    const error = await getBlob(AVATAR_URL).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(50000);
    expect((error as ApiError).status).toBe(500);
    expect(showErrorMessage).not.toHaveBeenCalled();
  });
});
