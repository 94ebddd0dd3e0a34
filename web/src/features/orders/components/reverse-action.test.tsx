import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { STEP_UP_CONFIRM_URL } from '@/components/step-up/step-up';
import { changeLocale } from '@/lib/i18n';
import { ApiError, post, STEP_UP_REQUIRED_CODE } from '@/lib/request';
import { withProviders } from '@/test/query-wrapper';
import { ORDER_REVERSE_URL } from '../api/orders';
import type { OrderItem } from '../api/types';
import { ReverseAction } from './reverse-action';

vi.mock('@/lib/request', async (original) => ({ ...(await original<object>()), post: vi.fn() }));
const mockedPost = vi.mocked(post);

const order = (status: number) => ({ id: 42, order_no: 'N20261202', price_fen: 985, status }) as OrderItem;
const show = (status = 2) => render(<ReverseAction order={order(status)} />, { wrapper: withProviders() });
const open = () => act(async () => fireEvent.click(screen.getByTestId('reverse-order')));
const confirm = () => act(async () => fireEvent.click(screen.getByTestId('reverse-confirm')));
const reason = (value: string) => fireEvent.change(screen.getByTestId('reverse-reason'), { target: { value } });
const reversals = () => mockedPost.mock.calls.filter(([url]) => url === ORDER_REVERSE_URL);

beforeEach(async () => {
  mockedPost.mockReset();
  await changeLocale('en-US');
});

describe('ReverseAction', () => {
  it('is offered on a successful order only', () => {
    for (const status of [0, 1, 3, 4, 5]) {
      const { unmount } = show(status);
      expect(screen.queryByTestId('reverse-order')).not.toBeInTheDocument();
      unmount();
    }
    show(2);
    expect(screen.getByTestId('reverse-order')).toHaveTextContent('Reverse');
  });

  it('says what it does, needs a reason and sends it trimmed', async () => {
    mockedPost.mockResolvedValue({ ...order(5) });
    show();
    await open();
    expect(screen.getByTestId('reverse-explanation')).toHaveTextContent('refund 9.85 yuan');
    expect(screen.getByTestId('reverse-explanation')).toHaveTextContent('N20261202');
    reason('   ');
    await confirm();
    expect(await screen.findByText('Enter the reason for the reversal')).toBeInTheDocument();
    expect(mockedPost).not.toHaveBeenCalled();
    reason('  carrier took it back  ');
    await confirm();
    await waitFor(() => expect(reversals()).toHaveLength(1));
    expect(reversals()[0][1]).toEqual({ order_id: 42, reason: 'carrier took it back' });
    expect(await screen.findByText('Order reversed and refunded')).toBeInTheDocument();
  });

  it('asks for the step-up code when two-factor is on, then reverses', async () => {
    mockedPost.mockImplementation(async (url: string) => {
      if (url === STEP_UP_CONFIRM_URL) return { valid_until: '2026-12-02T05:00:00Z' };
      if (reversals().length === 1) {
        throw new ApiError('confirm first', { kind: 'envelope', code: STEP_UP_REQUIRED_CODE, status: 403 });
      }
      return order(5);
    });
    show();
    await open();
    reason('wrong number');
    await confirm();
    fireEvent.change(await screen.findByTestId('step-up-code-input'), { target: { value: '123456' } });
    await act(async () => fireEvent.click(screen.getByTestId('step-up-confirm')));
    await waitFor(() => expect(reversals()).toHaveLength(2));
    expect(mockedPost).toHaveBeenCalledWith(STEP_UP_CONFIRM_URL, { code: '123456' }, { quietErrors: true });
  });

  it('speaks Chinese in zh-CN', async () => {
    await changeLocale('zh-CN');
    show();
    expect(screen.getByTestId('reverse-order')).toHaveTextContent(/冲\s?正/);
    await open();
    expect(screen.getByTestId('reverse-explanation')).toHaveTextContent('退回商户账户');
  });
});
