import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { showSuccessMessage } from '@/lib/feedback';
import { changeLocale } from '@/lib/i18n';
import { post } from '@/lib/request';
import { withProviders } from '@/test/query-wrapper';
import { MERCHANT_ACTION_URLS, MERCHANT_LIST_URL, type MerchantRow } from '../api/merchants';
import MerchantsPage from './merchants-page';

vi.mock('@/lib/feedback', () => ({ showErrorMessage: vi.fn(), showSuccessMessage: vi.fn() }));
vi.mock('@/lib/request', async (original) => ({ ...(await original<object>()), post: vi.fn() }));
const mockedPost = vi.mocked(post);

const merchant = (credit_used_fen: number): MerchantRow => ({
  merchant_id: 10001,
  name: 'Shop',
  balance_fen: 100_00,
  credit_limit_fen: 500_00,
  credit_used_fen,
  credit_available_fen: 500_00 - credit_used_fen,
  total_topup_fen: 100_00,
  created_at: '2026-11-20T08:00:00Z',
  disabled_at: null,
});

async function renderPage(creditUsed: number) {
  mockedPost.mockReset().mockImplementation(async (url: string) => {
    if (url === MERCHANT_LIST_URL) return { list: [merchant(creditUsed)], total: 1 };
    return merchant(creditUsed);
  });
  await act(async () => {
    render(<MerchantsPage />, { wrapper: withProviders() });
  });
  await screen.findByText('Shop');
}

/** The bodies of the top-up calls made so far. */
const topUps = () =>
  mockedPost.mock.calls.filter(([url]) => url === MERCHANT_ACTION_URLS.topup).map(([, body]) => body);

beforeEach(async () => {
  await changeLocale('en-US');
});

describe('merchants page', () => {
  it('says why "record repayment" is disabled', async () => {
    await renderPage(0);
    expect(screen.getByTestId('merchant-repay')).toBeDisabled();
    await act(async () => {
      fireEvent.mouseEnter(screen.getByTestId('merchant-repay-why'));
    });
    expect(
      await screen.findByText('This merchant has no credit awaiting repayment: nothing to record'),
    ).toBeInTheDocument();
  });

  it('enables it, without the explanation, when credit awaits repayment', async () => {
    await renderPage(20_00);
    expect(screen.getByTestId('merchant-repay')).toBeEnabled();
    expect(screen.queryByTestId('merchant-repay-why')).not.toBeInTheDocument();
  });

  it('tops up only after echoing the amount', async () => {
    await renderPage(0);
    await act(async () => {
      fireEvent.click(screen.getByTestId('merchant-topup'));
    });
    await act(async () => {
      fireEvent.change(await screen.findByTestId('merchant-action-amount'), { target: { value: '1234.5' } });
    });
    await act(async () => {
      fireEvent.click(screen.getByTestId('merchant-action-next'));
    });
    expect(await screen.findByText('Top up Shop (10001) by ¥1,234.50?')).toBeInTheDocument();
    expect(mockedPost).not.toHaveBeenCalledWith(MERCHANT_ACTION_URLS.topup, expect.anything());
    await act(async () => {
      fireEvent.click(screen.getByTestId('merchant-action-confirm'));
    });
    await waitFor(() =>
      expect(mockedPost).toHaveBeenCalledWith(
        MERCHANT_ACTION_URLS.topup,
        { merchant_id: 10001, amount_fen: 123450 },
        { headers: { 'Idempotency-Key': expect.stringMatching(/^[0-9a-f]{32}$/) } },
      ),
    );
  });
  it('goes back from the echo to the form with the footer button, nothing sent', async () => {
    await renderPage(0);
    await act(async () => {
      fireEvent.click(screen.getByTestId('merchant-topup'));
    });
    await act(async () => {
      fireEvent.change(await screen.findByTestId('merchant-action-amount'), { target: { value: '3' } });
    });
    await act(async () => {
      fireEvent.click(screen.getByTestId('merchant-action-next'));
    });
    expect(await screen.findByText('Top up Shop (10001) by ¥3.00?')).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(screen.getByTestId('merchant-action-back'));
    });
    await waitFor(() => expect(screen.queryByTestId('merchant-action-echo')).not.toBeInTheDocument());
    expect(screen.getByTestId('merchant-action-amount')).toHaveValue('3');
    await act(async () => {
      fireEvent.click(screen.getByTestId('merchant-action-next'));
    });
    expect(await screen.findByTestId('merchant-action-echo')).toBeInTheDocument();
    expect(mockedPost).not.toHaveBeenCalledWith(MERCHANT_ACTION_URLS.topup, expect.anything(), expect.anything());
  });

  it('stays on the review step after a double click on Next, nothing sent', async () => {
    await renderPage(0);
    // A real pointer clicks whatever is at the spot, loading or not.
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    await user.click(screen.getByTestId('merchant-topup'));
    await user.type(await screen.findByTestId('merchant-action-amount'), '5000');
    const next = screen.getByTestId('merchant-action-next');
    await user.dblClick(next);
    expect(await screen.findByText('Top up Shop (10001) by ¥5,000.00?')).toBeInTheDocument();
    // A slower double click: its second click comes once the review step is drawn, where
    // the first one was made.
    await user.click(next);
    expect(screen.getByTestId('merchant-action-echo')).toBeInTheDocument();
    expect(mockedPost).not.toHaveBeenCalledWith(MERCHANT_ACTION_URLS.topup, expect.anything(), expect.anything());
    // A fresh click on the confirm button tops up, once in all (the double click sent nothing).
    await user.click(screen.getByTestId('merchant-action-confirm'));
    await waitFor(() => expect(showSuccessMessage).toHaveBeenCalledWith('Done'));
    expect(topUps()).toEqual([{ merchant_id: 10001, amount_fen: 500000 }]);
  });

  it('ignores a confirm click whose press began before the review step was drawn', async () => {
    await renderPage(0);
    const user = userEvent.setup();
    await user.click(screen.getByTestId('merchant-topup'));
    await user.type(await screen.findByTestId('merchant-action-amount'), '7');
    await user.click(screen.getByTestId('merchant-action-next'));
    const confirm = await screen.findByTestId('merchant-action-confirm');
    // Only the release and the click reach the new button (the press was on Next).
    await act(async () => {
      fireEvent.pointerUp(confirm);
      fireEvent.mouseUp(confirm);
      fireEvent.click(confirm, { detail: 1 });
    });
    expect(screen.getByTestId('merchant-action-echo')).toBeInTheDocument();
    // A whole click of its own tops up: once in all, so the half click sent nothing.
    await user.click(confirm);
    await waitFor(() => expect(showSuccessMessage).toHaveBeenCalledWith('Done'));
    expect(topUps()).toEqual([{ merchant_id: 10001, amount_fen: 700 }]);
  });
});
