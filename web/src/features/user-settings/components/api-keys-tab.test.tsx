import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLocale } from '@/lib/i18n';
import { post } from '@/lib/request';
import { testQueryClient, withProviders } from '@/test/query-wrapper';
import {
  API_KEY_CREATE_URL,
  API_KEY_LIST_URL,
  API_KEY_REVOKE_URL,
  API_KEY_SET_LEGACY_URL,
  type ApiKeyItem,
} from '../api/api-keys';
import { ApiKeysTab } from './api-keys-tab';

vi.setConfig({ testTimeout: 30_000 });
vi.mock('@/lib/request', () => ({ post: vi.fn(), get: vi.fn() }));
vi.mock('@/lib/feedback', () => ({ showErrorMessage: vi.fn(), showSuccessMessage: vi.fn() }));

const key = (id: string, state: ApiKeyItem['state'] = 'active'): ApiKeyItem => ({
  key_id: id,
  mid: 10001,
  created_at: '2026-11-23T00:00:00Z',
  created_by: 'merchant',
  last_used_at: null,
  last_used_address: null,
  state,
  revoked_at: null,
  legacy_md5: false,
});

let keys: ApiKeyItem[] = [];
beforeEach(() => {
  keys = [key('ak_old', 'revoked')];
  vi.mocked(post)
    .mockReset()
    .mockImplementation(async (url: string, body?: unknown) => {
      if (url === API_KEY_LIST_URL) return keys;
      if (url === API_KEY_CREATE_URL) {
        keys = [key('ak_new'), ...keys];
        return { key_id: 'ak_new', secret: 'sk_shown_once' };
      }
      if (url === API_KEY_REVOKE_URL) {
        keys = keys.map((item) =>
          item.key_id === (body as { key_id: string }).key_id ? { ...item, state: 'revoked' } : item,
        );
        return null;
      }
      if (url === API_KEY_SET_LEGACY_URL) {
        const { key_id, enabled } = body as { key_id: string; enabled: boolean };
        keys = keys.map((item) => (item.key_id === key_id ? { ...item, legacy_md5: enabled } : item));
        return null;
      }
      throw new Error(url);
    });
});
afterEach(cleanup);

async function renderTab(isAdmin = false) {
  await act(async () => {
    render(<ApiKeysTab isAdmin={isAdmin} />, { wrapper: withProviders(testQueryClient()) });
  });
}

describe('the API keys tab', () => {
  it("links the merchant API guide the server serves, in the console's language", async () => {
    for (const [locale, name] of [
      ['zh-CN', '开放接口对接指南'],
      ['en-US', 'Merchant API guide'],
    ] as const) {
      await changeLocale(locale);
      await renderTab();
      const link = screen.getByTestId('api-guide-link');
      expect(link.getAttribute('href')).toBe(`/guide/merchant-api?lang=${locale}`);
      expect(link.textContent).toContain(name);
      expect(document.body.textContent).not.toContain('docs/merchant-api.md');
      cleanup();
    }
    await changeLocale('zh-CN');
  });

  it("shows the times in the console's time (Beijing), not raw UTC", async () => {
    keys = [
      {
        ...key('ak_used'),
        created_at: '2026-12-01T13:58:06.924Z',
        last_used_at: '2026-12-01T16:30:00Z',
        last_used_address: '203.0.113.7',
      },
    ];
    await renderTab();
    await waitFor(() => screen.getByText('2026-12-01 21:58:06'));
    expect(screen.getByText('2026-12-02 00:30:00 (203.0.113.7)')).toBeTruthy();
    expect(screen.queryByText(/2026-12-01T13:58/)).toBeNull();
  });

  it('creates a key with the password and shows the secret once', async () => {
    await renderTab();
    await act(async () => fireEvent.click(screen.getByTestId('api-key-create')));
    await act(async () => {
      fireEvent.change(screen.getByTestId('api-key-password'), { target: { value: 'Merchant123' } });
    });
    await act(async () => fireEvent.click(screen.getByTestId('api-key-create-ok')));
    await waitFor(() => expect(screen.getByTestId('api-key-new-secret').textContent).toBe('sk_shown_once'));
    expect(post).toHaveBeenCalledWith(API_KEY_CREATE_URL, { password: 'Merchant123' });
    expect(screen.getByTestId('api-key-download')).toBeTruthy();
    await waitFor(() => expect(screen.getAllByText('ak_new').length).toBeGreaterThan(0));
  });

  it('revokes after confirmation', async () => {
    keys = [key('ak_live')];
    await renderTab();
    await waitFor(() => screen.getByTestId('api-key-revoke-ak_live'));
    await act(async () => fireEvent.click(screen.getByTestId('api-key-revoke-ak_live')));
    expect(post).not.toHaveBeenCalledWith(API_KEY_REVOKE_URL, expect.anything());
    await act(async () => fireEvent.click(screen.getByTestId('api-key-revoke-ok')));
    await waitFor(() => expect(post).toHaveBeenCalledWith(API_KEY_REVOKE_URL, { key_id: 'ak_live' }));
  });

  it('lets administrators list and revoke but not create', async () => {
    keys = [key('ak_live')];
    await renderTab(true);
    await waitFor(() => screen.getByTestId('api-key-revoke-ak_live'));
    expect(screen.queryByTestId('api-key-create')).toBeNull();
    expect(screen.getByText('10001')).toBeTruthy();
  });

  it('lets administrators switch a key to legacy MD5 after a warning', async () => {
    keys = [key('ak_live')];
    await renderTab(true);
    await waitFor(() => screen.getByTestId('api-key-legacy-ak_live'));
    await act(async () => fireEvent.click(screen.getByTestId('api-key-legacy-ak_live')));
    await waitFor(() => screen.getByText(/weaker than HMAC-SHA256|弱于 HMAC-SHA256/));
    expect(post).not.toHaveBeenCalledWith(API_KEY_SET_LEGACY_URL, expect.anything());
    await act(async () => fireEvent.click(screen.getByTestId('api-key-legacy-ok')));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(API_KEY_SET_LEGACY_URL, { key_id: 'ak_live', enabled: true }),
    );
    await waitFor(() => expect(screen.getByText(/HMAC \+ (legacy MD5|旧版 MD5)/)).toBeTruthy());
  });

  it('warns merchants whose key accepts MD5 and gives them no switch', async () => {
    keys = [{ ...key('ak_live'), legacy_md5: true }];
    await renderTab();
    await waitFor(() => screen.getByTestId('api-key-legacy-warning'));
    expect(screen.queryByTestId('api-key-legacy-ak_live')).toBeNull();
  });
});
