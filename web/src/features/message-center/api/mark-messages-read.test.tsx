import { act, renderHook, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { UNREAD_COUNT_URL, UNREAD_REFRESH_MS, useMessages, useUnreadCount, unreadCountQueryOptions } from '@/lib/inbox';
import { get, post } from '@/lib/request';
import { setToken } from '@/lib/session';
import { testQueryClient, withProviders } from '@/test/query-wrapper';
import { MARK_ALL_READ_URL, MARK_READ_URL, useMarkAllRead, useMarkRead } from './mark-messages-read';

vi.mock('@/lib/request', () => {
  const post = vi.fn();
  return { get: vi.fn(), post };
});
const mockedGet = vi.mocked(get);
const mockedPost = vi.mocked(post);

const counts = (notice: number) => ({ message: 0, notice, todo: 0, total: notice });
const notice = (id: number, status: number) => ({
  id,
  type: 'notice',
  title: '密码已修改 / Password changed',
  subTitle: '',
  avatar: '',
  content: '',
  time: '2026-01-01T00:00:00Z',
  messageType: 2,
  status,
});

/** Make the next unread-count fetch wait until the test answers it. */
function holdNextCountFetch() {
  let answer: (value: ReturnType<typeof counts>) => void = () => {};
  let started = false;
  mockedGet.mockImplementationOnce(async (url: string) => {
    if (url !== UNREAD_COUNT_URL) throw new Error(`unexpected GET ${url}`);
    started = true;
    return new Promise((resolve) => {
      answer = resolve;
    });
  });
  return { started: () => started, answer: (value: ReturnType<typeof counts>) => answer(value) };
}

let unread = 2;
let list = [notice(2, 0), notice(1, 0)];

beforeEach(() => {
  // The inbox queries run only with a session.
  setToken('token');
  unread = 2;
  list = [notice(2, 0), notice(1, 0)];
  mockedGet.mockReset().mockImplementation(async (url: string) => {
    if (url === UNREAD_COUNT_URL) return counts(unread);
    throw new Error(`unexpected GET ${url}`);
  });
  mockedPost.mockReset().mockImplementation(async (url: string, body?: unknown) => {
    if (url === MARK_READ_URL) {
      const ids = (body as { ids: number[] }).ids;
      list = list.map((item) => (ids.includes(item.id) ? { ...item, status: 1 } : item));
      unread = list.filter((item) => item.status === 0).length;
      return { marked: ids.length, unread: counts(unread) };
    }
    if (url === MARK_ALL_READ_URL) {
      const marked = unread;
      list = list.map((item) => ({ ...item, status: 1 }));
      unread = 0;
      return { marked, unread: counts(0) };
    }
    return list;
  });
});

describe('the unread badge', () => {
  it('polls every 30 seconds', () => {
    expect(UNREAD_REFRESH_MS).toBe(30_000);
    expect(unreadCountQueryOptions().refetchInterval).toBe(30_000);
  });

  it('updates at once after a message is marked read, and the list follows', async () => {
    const client = testQueryClient();
    const { result } = renderHook(
      () => ({ badge: useUnreadCount(), notices: useMessages('notice'), markRead: useMarkRead() }),
      { wrapper: withProviders(client) },
    );
    await waitFor(() => expect(result.current.badge.data?.total).toBe(2));
    await waitFor(() => expect(result.current.notices.data).toHaveLength(2));
    // The badge's next fetch hangs: only the marking's own answer can move it.
    const refetch = holdNextCountFetch();

    act(() => result.current.markRead.mutate([2]));
    await waitFor(() => expect(result.current.badge.data?.total).toBe(1));
    expect(mockedPost).toHaveBeenCalledWith(MARK_READ_URL, { ids: [2] });
    // The inbox was invalidated: the badge and the list are fetched again.
    await waitFor(() => expect(refetch.started()).toBe(true));
    refetch.answer(counts(unread));
    await waitFor(() => expect(result.current.markRead.isSuccess).toBe(true));
    await waitFor(() => expect(result.current.notices.data?.find((item) => item.id === 2)?.status).toBe(1));
  });

  it('is not fetched without a session (e.g. while logging out)', async () => {
    localStorage.clear();
    const { result } = renderHook(() => useUnreadCount(), { wrapper: withProviders(testQueryClient()) });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(result.current.fetchStatus).toBe('idle');
    expect(mockedGet).not.toHaveBeenCalled();
  });

  it('drops to zero after mark all read of a tab', async () => {
    const client = testQueryClient();
    const { result } = renderHook(() => ({ badge: useUnreadCount(), markAll: useMarkAllRead() }), {
      wrapper: withProviders(client),
    });
    await waitFor(() => expect(result.current.badge.data?.total).toBe(2));
    const refetch = holdNextCountFetch();

    act(() => result.current.markAll.mutate('notice'));
    await waitFor(() => expect(result.current.badge.data?.total).toBe(0));
    expect(mockedPost).toHaveBeenCalledWith(MARK_ALL_READ_URL, { type: 'notice' });
    await waitFor(() => expect(refetch.started()).toBe(true));
    refetch.answer(counts(0));
    await waitFor(() => expect(result.current.markAll.isSuccess).toBe(true));
    expect(result.current.badge.data?.total).toBe(0);
  });
});
