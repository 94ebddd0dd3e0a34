import type { AxiosAdapter, InternalAxiosRequestConfig } from 'axios';
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import type { ApiSchema } from './api-paths';
import { get, http, post } from './request';

vi.mock('./feedback', () => ({ showErrorMessage: vi.fn(), openErrorDialog: vi.fn() }));

let seen: InternalAxiosRequestConfig[] = [];
const originalAdapter = http.defaults.adapter;

function answer(data: unknown) {
  const adapter: AxiosAdapter = async (config) => {
    seen.push(config);
    return { data: { code: 20000, msg: 'ok', data }, status: 200, statusText: 'OK', headers: {}, config, request: {} };
  };
  http.defaults.adapter = adapter;
}

afterEach(() => {
  seen = [];
  http.defaults.adapter = originalAdapter;
});

describe('the client typed by path', () => {
  it('posts the body as JSON and resolves with the envelope data', async () => {
    answer({ list: [], total: 0 });
    const page = await post('/adminapi/admin/merchant/list', { page: 1, page_size: 10 });
    expect(page).toEqual({ list: [], total: 0 });
    expect(seen[0].method).toBe('post');
    expect(seen[0].url).toBe('/adminapi/admin/merchant/list');
    expect(JSON.parse(seen[0].data as string)).toEqual({ page: 1, page_size: 10 });
    expectTypeOf(page).toEqualTypeOf<ApiSchema<'MerchantListResponse'>>();
  });

  it('sends a GET query as parameters and keeps the call options', async () => {
    answer({ pending: 2 });
    const count = await get('/adminapi/certification/pendingCount', undefined, { quietErrors: true });
    expect(count).toEqual({ pending: 2 });
    expect(seen[0].method).toBe('get');
    expect(seen[0].quietErrors).toBe(true);
    expectTypeOf(count).toEqualTypeOf<ApiSchema<'PendingCount'>>();
  });

  it('types the answer, the body and the path from the server document', () => {
    // Type checks only (tsc runs over the tests): nothing is sent.
    const never = () => false;
    if (never()) {
      // @ts-expect-error a path the server does not declare
      void post('/adminapi/no/such/path', {});
      // @ts-expect-error the merchant list's body has no field of this name
      void post('/adminapi/admin/merchant/list', { page: 1, page_size: 10, pagesize: 10 });
      // @ts-expect-error a body where the path takes none
      void post('/adminapi/login/logout', { everywhere: true });
      expectTypeOf(post('/adminapi/admin/audit/actions')).resolves.toEqualTypeOf<ApiSchema<'AuditAction'>[]>();
      expectTypeOf(post('/adminapi/login/logout')).resolves.toEqualTypeOf<null>();
    }
    expect(never()).toBe(false);
  });
});
