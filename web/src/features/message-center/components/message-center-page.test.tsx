import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLocale } from '@/lib/i18n';
import { MESSAGE_LIST_URL, UNREAD_COUNT_URL, type InboxMessage } from '@/lib/inbox';
import { get, post } from '@/lib/request';
import { setToken } from '@/lib/session';
import { withProviders } from '@/test/query-wrapper';
import { MARK_ALL_READ_URL, MARK_READ_URL } from '../api/mark-messages-read';
import MessageCenterPage from './message-center-page';

vi.setConfig({ testTimeout: 30_000 });
vi.mock('@/lib/request', () => {
  const post = vi.fn();
  return { get: vi.fn(), post };
});

const notice = (id: number, status: number, messageType = 2): InboxMessage => ({
  id,
  type: 'notice',
  title: '密码已修改 / Password changed',
  subTitle: '您的其他登录会话已全部退出 / Your other sessions were signed out',
  avatar: '',
  content: `内容 ${id}`,
  time: '2026-01-01T00:00:00Z',
  messageType,
  status,
});

let notices: InboxMessage[] = [];
const unread = () => notices.filter((item) => item.status === 0).length;
const counts = () => ({ message: 0, notice: unread(), todo: 0, total: unread() });

beforeEach(() => {
  // The inbox queries run only with a session.
  setToken('token');
  notices = [notice(3, 0), notice(2, 0, 1), notice(1, 1, 0)];
  vi.mocked(get)
    .mockReset()
    .mockImplementation(async (url: string) => {
      if (url === UNREAD_COUNT_URL) return counts();
      throw new Error(url);
    });
  vi.mocked(post)
    .mockReset()
    .mockImplementation(async (url: string, body?: unknown) => {
      if (url === MESSAGE_LIST_URL) {
        const type = (body as { type?: string }).type;
        return type === 'notice' || !type ? notices : [];
      }
      if (url === MARK_READ_URL) {
        const ids = (body as { ids: number[] }).ids;
        notices = notices.map((item) => (ids.includes(item.id) ? { ...item, status: 1 } : item));
        return { marked: ids.length, unread: counts() };
      }
      if (url === MARK_ALL_READ_URL) {
        notices = notices.map((item) => ({ ...item, status: 1 }));
        return { marked: 2, unread: counts() };
      }
      throw new Error(url);
    });
});
afterEach(async () => {
  cleanup();
  await changeLocale('zh-CN');
});

async function renderPage(path: string) {
  await act(async () => {
    render(<MessageCenterPage />, { wrapper: withProviders(undefined, path) });
  });
}

describe('<MessageCenterPage>', () => {
  it('lists notices in the console language with their level and read state', async () => {
    await renderPage('/user/message?tab=notice');
    const item = await screen.findByTestId('message-item-3');
    expect(item).toHaveAttribute('data-status', 'unread');
    expect(item).toHaveTextContent('密码已修改');
    expect(item).not.toHaveTextContent('Password changed');
    expect(item).toHaveTextContent('警告');
    expect(screen.getByTestId('message-item-2')).toHaveTextContent('成功');
    expect(screen.getByTestId('message-item-1')).toHaveAttribute('data-status', 'read');
  });

  it('marks a message read when it is opened', async () => {
    await renderPage('/user/message?tab=notice');
    const item = await screen.findByTestId('message-item-3');
    await act(async () => {
      fireEvent.click(item.querySelector('[role="button"]')!);
    });
    expect(post).toHaveBeenCalledWith(MARK_READ_URL, { ids: [3] });
    await waitFor(() => expect(screen.getByTestId('message-item-3')).toHaveAttribute('data-status', 'read'));
  });

  it('opens and marks read the message the bell pointed at', async () => {
    await renderPage('/user/message?tab=notice&id=2');
    await waitFor(() => expect(post).toHaveBeenCalledWith(MARK_READ_URL, { ids: [2] }));
    await waitFor(() => expect(screen.getByTestId('message-item-2')).toHaveAttribute('data-status', 'read'));
  });

  it('marks all read, then has nothing left to mark', async () => {
    await changeLocale('en-US');
    await renderPage('/user/message?tab=notice');
    await screen.findByTestId('message-item-3');
    const button = screen.getByTestId('messages-mark-all-read');
    await waitFor(() => expect(button).toBeEnabled());
    await act(async () => {
      fireEvent.click(button);
    });
    expect(post).toHaveBeenCalledWith(MARK_ALL_READ_URL, { type: 'notice' });
    await waitFor(() => expect(screen.getByTestId('message-item-3')).toHaveAttribute('data-status', 'read'));
    await waitFor(() => expect(screen.getByTestId('messages-mark-all-read')).toBeDisabled());
  });

  it('offers to open the page a notice leads to, and only pages of the console', async () => {
    notices = [
      { ...notice(5, 0), link: '/finance/account' },
      { ...notice(4, 0), link: 'https://elsewhere.example.com/' },
      { ...notice(6, 1), link: '//elsewhere.example.com/' },
    ];
    await renderPage('/user/message?tab=notice');
    expect(await screen.findByTestId('message-open-5')).toHaveTextContent('去查看');
    expect(screen.queryByTestId('message-open-4')).toBeNull();
    expect(screen.queryByTestId('message-open-6')).toBeNull();
    await act(async () => {
      fireEvent.click(screen.getByTestId('message-open-5'));
    });
    expect(post).toHaveBeenCalledWith(MARK_READ_URL, { ids: [5] });
  });

  it('shows an empty tab', async () => {
    await changeLocale('en-US');
    await renderPage('/user/message?tab=todo');
    expect(await screen.findByTestId('messages-empty-todo')).toHaveTextContent('No to-dos');
  });
});
