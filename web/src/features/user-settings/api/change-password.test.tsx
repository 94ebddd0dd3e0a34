import { act, renderHook, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { UNREAD_COUNT_URL, useUnreadCount } from '@/lib/inbox';
import { get, post } from '@/lib/request';
import { setToken } from '@/lib/session';
import { testQueryClient, withProviders } from '@/test/query-wrapper';
import { CHANGE_PASSWORD_URL, useChangePassword } from './change-password';

vi.mock('@/lib/request', () => ({ get: vi.fn(), post: vi.fn() }));

let notices = 0;
beforeEach(() => {
  // The inbox queries run only with a session.
  setToken('token');
  notices = 0;
  vi.mocked(get)
    .mockReset()
    .mockImplementation(async (url: string) => {
      if (url !== UNREAD_COUNT_URL) throw new Error(url);
      return { message: 0, notice: notices, todo: 0, total: notices };
    });
  vi.mocked(post).mockReset();
});

describe('changing the password', () => {
  it('refreshes the badge at once (the server sends a notice)', async () => {
    vi.mocked(post).mockImplementation(async () => {
      notices += 1;
      return { changed: true, other_sessions_ended: 1 };
    });
    const { result } = renderHook(() => ({ badge: useUnreadCount(), change: useChangePassword() }), {
      wrapper: withProviders(testQueryClient()),
    });
    await waitFor(() => expect(result.current.badge.data?.total).toBe(0));
    await act(async () => {
      await result.current.change.mutateAsync({ current_password: 'Merchant123', new_password: 'Merchant456' });
    });
    expect(post).toHaveBeenCalledWith(CHANGE_PASSWORD_URL, {
      current_password: 'Merchant123',
      new_password: 'Merchant456',
    });
    await waitFor(() => expect(result.current.badge.data?.total).toBe(1));
  });

  it('leaves the badge alone when nothing changed', async () => {
    vi.mocked(post).mockResolvedValue({ changed: false, other_sessions_ended: 0 });
    const { result } = renderHook(() => ({ badge: useUnreadCount(), change: useChangePassword() }), {
      wrapper: withProviders(testQueryClient()),
    });
    await waitFor(() => expect(result.current.badge.data?.total).toBe(0));
    const fetches = vi.mocked(get).mock.calls.length;
    await act(async () => {
      await result.current.change.mutateAsync({ current_password: '', new_password: '' });
    });
    expect(vi.mocked(get).mock.calls.length).toBe(fetches);
  });
});
