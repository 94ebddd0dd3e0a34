import { act, render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLocale } from '@/lib/i18n';
import { post } from '@/lib/request';
import { useUserStore } from '@/stores/user-store';
import { withProviders } from '@/test/query-wrapper';
import { SECURITY_KINDS_URL, SECURITY_LIST_URL, type SecurityEvent } from '../api/security';
import SecurityHistoryPage from './security-history-page';

vi.mock('@/lib/feedback', () => ({ showErrorMessage: vi.fn(), showSuccessMessage: vi.fn() }));
vi.mock('@/lib/request', async (original) => ({ ...(await original<object>()), post: vi.fn() }));
const mockedPost = vi.mocked(post);

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

const event: SecurityEvent = {
  id: 7,
  merchant_id: 10001,
  user_id: 2,
  username: 'merchant',
  kind: 'sign_in_failed',
  kind_name: 'Sign-in failed',
  detail: 'Wrong password',
  client_address: '203.0.113.7',
  user_agent: CHROME,
  created_at: '2026-12-01T08:00:00Z',
};

async function renderAs(role: 'admin' | 'user') {
  useUserStore.setState({ role, merchantRole: role === 'user' ? 'owner' : '' });
  mockedPost.mockReset().mockImplementation(async (url: string) => {
    if (url === SECURITY_LIST_URL) return { list: [event], total: 1, total_capped: false, next_cursor: null };
    if (url === SECURITY_KINDS_URL) return [{ kind: 'sign_in_failed', name: 'Sign-in failed' }];
    throw new Error(`unexpected call ${url}`);
  });
  await act(async () => {
    render(<SecurityHistoryPage />, { wrapper: withProviders() });
  });
  await screen.findByText('Sign-in failed');
}

beforeEach(async () => {
  await changeLocale('en-US');
  // A wide screen: every column shows (on a phone only the kind, user and detail do).
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: true,
        media: query,
        onchange: null,
        addListener: vi.fn(),
        removeListener: vi.fn(),
        addEventListener: vi.fn(),
        removeEventListener: vi.fn(),
        dispatchEvent: vi.fn(),
      }) as MediaQueryList,
  );
});

describe('security history page', () => {
  it('shows an owner the event with its address and browser, and no merchant column', async () => {
    await renderAs('user');
    const table = screen.getByTestId('security-table');
    expect(within(table).getByText('Wrong password')).toBeInTheDocument();
    expect(within(table).getByText('203.0.113.7')).toBeInTheDocument();
    const browser = within(table).getByTestId('security-browser');
    expect(browser).toHaveTextContent('Chrome 131 · Windows');
    expect(browser).toHaveAttribute('title', CHROME);
    expect(within(table).queryByText('10001')).toBeNull();
    expect(screen.getByTestId('security-filters')).not.toHaveTextContent('Merchant');
    const [url, body] = mockedPost.mock.calls.find(([called]) => called === SECURITY_LIST_URL)!;
    expect(url).toBe(SECURITY_LIST_URL);
    expect(body).not.toHaveProperty('merchant_id');
  });

  it('shows administrators whose history each row is, and a merchant filter', async () => {
    await renderAs('admin');
    const table = screen.getByTestId('security-table');
    expect(within(table).getByText('10001')).toBeInTheDocument();
    expect(screen.getByTestId('security-filters')).toHaveTextContent('Merchant');
  });
});
