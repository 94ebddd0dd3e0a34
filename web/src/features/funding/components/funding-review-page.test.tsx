import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLocale } from '@/lib/i18n';
import { ApiError, post, STEP_UP_REQUIRED_CODE } from '@/lib/request';
import { STEP_UP_CONFIRM_URL } from '@/components/step-up/step-up';
import { withProviders } from '@/test/query-wrapper';
import { FUNDING_APPROVE_URL, FUNDING_QUEUE_URL, FUNDING_REJECT_URL, type FundingItem } from '../api/funding';
import FundingReviewPage, { toQueueQuery } from './funding-review-page';

vi.mock('@/lib/feedback', () => ({ showErrorMessage: vi.fn(), showSuccessMessage: vi.fn() }));
vi.mock('@/lib/request', async (original) => ({ ...(await original<object>()), post: vi.fn() }));
const mockedPost = vi.mocked(post);

const request = (status: string): FundingItem => ({
  id: 12,
  merchant_id: 10001,
  merchant_name: 'Shop',
  amount_fen: 123_456,
  bank_reference: 'ABC123',
  payer_name: '张三',
  note: '',
  proof_type: 'image/png',
  proof_size: 100,
  status,
  reason: null,
  created_by: 2,
  created_by_name: 'merchant',
  decided_by: null,
  decided_by_name: null,
  decided_at: null,
  ledger_log_id: null,
  created_at: '2026-12-01T08:00:00Z',
  updated_at: '2026-12-01T08:00:00Z',
});

async function renderPage(approve: (body: unknown, config: unknown) => Promise<unknown>) {
  mockedPost.mockReset().mockImplementation(async (url: string, body?: unknown, config?: unknown) => {
    if (url === FUNDING_QUEUE_URL) return { list: [request('pending')], total: 1 };
    if (url === FUNDING_APPROVE_URL) return approve(body, config);
    if (url === STEP_UP_CONFIRM_URL) return { valid_until: '2026-12-01T08:05:00Z' };
    return request('rejected');
  });
  await act(async () => {
    render(<FundingReviewPage />, { wrapper: withProviders() });
  });
  await screen.findByText('1,234.56');
}

const approvals = () => mockedPost.mock.calls.filter(([url]) => url === FUNDING_APPROVE_URL);
const keyOf = (call: unknown[]) => (call[2] as { headers: Record<string, string> }).headers['Idempotency-Key'];

beforeEach(async () => {
  await changeLocale('en-US');
});

describe('funding review page', () => {
  it('approves after echoing the amount, asks for the step-up code and sends the same key again', async () => {
    let calls = 0;
    await renderPage(async () => {
      calls += 1;
      if (calls === 1) throw new ApiError('confirm', { kind: 'envelope', code: STEP_UP_REQUIRED_CODE, status: 403 });
      return request('approved');
    });
    await act(async () => fireEvent.click(screen.getByTestId('funding-approve')));
    expect(
      await screen.findByText(
        'Approve funding request #12: add ¥1,234.56 to the balance of merchant Shop (10001) (bank reference ABC123)?',
      ),
    ).toBeInTheDocument();
    await act(async () => fireEvent.click(screen.getByTestId('funding-approve-confirm')));
    expect(await screen.findByTestId('step-up-code')).toBeInTheDocument();
    expect(approvals()).toHaveLength(1);
    expect(approvals()[0][1]).toEqual({ id: 12 });
    fireEvent.change(screen.getByTestId('step-up-code-input'), { target: { value: '123456' } });
    await act(async () => fireEvent.click(screen.getByTestId('step-up-confirm')));
    await waitFor(() => expect(approvals()).toHaveLength(2));
    // The retry is the same approval: the same key, so the server credits once.
    expect(keyOf(approvals()[1])).toBe(keyOf(approvals()[0]));
    expect(keyOf(approvals()[0])).toBeTruthy();
  });

  it('rejects only with a reason', async () => {
    await renderPage(async () => request('approved'));
    await act(async () => fireEvent.click(screen.getByTestId('funding-reject')));
    await act(async () => fireEvent.click(await screen.findByTestId('funding-reject-confirm')));
    expect(await screen.findByText('Give the reason for the rejection (at most 200 characters)')).toBeInTheDocument();
    expect(mockedPost).not.toHaveBeenCalledWith(FUNDING_REJECT_URL, expect.anything());
    await act(async () =>
      fireEvent.change(screen.getByTestId('funding-reject-reason'), { target: { value: 'no transfer' } }),
    );
    await act(async () => fireEvent.click(screen.getByTestId('funding-reject-confirm')));
    await waitFor(() => expect(mockedPost).toHaveBeenCalledWith(FUNDING_REJECT_URL, { id: 12, reason: 'no transfer' }));
  });
});

describe('toQueueQuery', () => {
  it('keeps known statuses and positive merchant ids only', () => {
    expect(toQueueQuery({ status: 'pending', merchantId: 10001 })).toEqual({ status: 'pending', merchant_id: 10001 });
    expect(toQueueQuery({ status: 'paid', merchantId: -1 })).toEqual({});
  });
});
