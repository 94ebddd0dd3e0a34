import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-error';
import { changeLocale } from '@/lib/i18n';
import { post } from '@/lib/request';
import { withProviders } from '@/test/query-wrapper';
import {
  ADD_ORDER_URL,
  type AddedOrder,
  type NumberSegment,
  ORDER_DETAIL_URL,
  PRICE_URL,
  type PriceInfo,
  SEGMENT_LOOKUP_URL,
} from '../api/add-order';
import AddOrderPage from './add-order-page';

vi.mock('@/lib/feedback', () => ({ notify: vi.fn(), showErrorMessage: vi.fn(), showSuccessMessage: vi.fn() }));
vi.mock('@/lib/request', async (original) => ({ ...(await original<object>()), post: vi.fn() }));
const mockedPost = vi.mocked(post);

const PRICE: PriceInfo = {
  account_carrier: null,
  ported_from: null,
  offers: [
    {
      product_key: 'MOBILE-DIRECT-10',
      product_name: 'Mobile 10',
      carrier: 'mobile',
      product_kind: 'direct',
      face_value_fen: 10_00,
      price_fen: 9_80,
      speed: 'fast',
      provinces: [],
    },
    {
      product_key: 'MOBILE-CARD-10',
      product_name: 'Card 10',
      carrier: 'mobile',
      product_kind: 'card',
      face_value_fen: 10_00,
      price_fen: 9_90,
      speed: 'fast',
      provinces: [],
    },
  ],
  account: { balance_fen: 100_00, credit_limit_fen: 0, credit_used_fen: 0, total_topup_fen: 100_00 },
  spendable_fen: 100_00,
};

const ORDER: AddedOrder = {
  id: 7,
  merchant_order_id: 'M7',
  order_no: 'NO7',
  product_name: 'Mobile 10',
  account: '13800138000',
  face_value_fen: 10_00,
  price_fen: 9_80,
  status: 1,
  serial_no: null,
  failure_reason: null,
  failure_reason_code: null,
  created_at: '2026-11-20T08:00:00Z',
  deadline_at: '2026-11-20T08:30:00Z',
  duration_ms: null,
  merchant_id: 10001,
  system_order_id: 'S7',
  product_key: 'mobile-10',
  carrier: 'mobile',
  kind: 'ordinary',
  status_name: 'processing',
  buyback: false,
  has_card: false,
  remark: '',
};

/** The segment lookup's answer (none: the lookup fails, as for a prefix the table lacks). */
let segment: NumberSegment | null = null;
let price: PriceInfo = PRICE;
/** What the price call with a complete number says the number was ported away from. */
let portedFrom: PriceInfo['ported_from'] = null;

/** The answers to the add calls, handed out by the test (a call waits until answered). */
let answerAdd: Array<(outcome: 'placed' | 'lost' | 'in-flight') => void> = [];

/** The risk control's refusal of a number with an unfinished order (docs/api.md, 40940). */
const IN_FLIGHT = new ApiError('This number has an order in progress; wait for it to finish before ordering again', {
  kind: 'envelope',
  code: 40940,
  status: 409,
  data: {
    fields: { account: 'This number has an order in progress; wait for it to finish before ordering again' },
    keys: { account: 'order.account.in_flight' },
  },
});

/** Each add call's body and Idempotency-Key, in order. */
const addCalls = () =>
  mockedPost.mock.calls
    .filter(([url]) => url === ADD_ORDER_URL)
    .map(([, body, options]) => ({
      body,
      key: (options as { headers?: Record<string, string> } | undefined)?.headers?.['Idempotency-Key'],
    }));

/** The page with the add calls answered as `renderPage` answers them, nothing filled in. */
async function renderEmptyPage() {
  answerAdd = [];
  sessionStorage.clear();
  mockedPost.mockReset().mockImplementation((url: string, body?: unknown) => {
    if (url === PRICE_URL) {
      const account = (body as { account?: string } | undefined)?.account;
      return Promise.resolve(account ? { ...price, ported_from: portedFrom } : price);
    }
    if (url === SEGMENT_LOOKUP_URL) return segment ? Promise.resolve(segment) : Promise.reject(new Error('40400'));
    if (url === ORDER_DETAIL_URL) return Promise.resolve({ order: ORDER });
    if (url === ADD_ORDER_URL) {
      return new Promise((resolve, reject) => {
        answerAdd.push((outcome) => {
          if (outcome === 'placed') resolve({ order: ORDER, price_fen: 9_80 });
          else if (outcome === 'in-flight') reject(IN_FLIGHT);
          else reject(new Error('Network Error'));
        });
      });
    }
    return Promise.reject(new Error(`unexpected ${url}`));
  });
  await act(async () => {
    render(<AddOrderPage />, { wrapper: withProviders() });
  });
  return userEvent.setup({ pointerEventsCheck: 0 });
}

async function renderPage() {
  const user = await renderEmptyPage();
  await user.type(await screen.findByTestId('add-order-account'), '13800138000');
  await user.click(screen.getByRole('combobox'));
  await user.click(await screen.findByTitle('Mobile 10 · MOBILE-DIRECT-10 · Fast · ¥9.80'));
  await waitFor(() => expect(screen.getByTestId('add-order-price')).toHaveTextContent('9.80'));
  return user;
}

beforeEach(async () => {
  await changeLocale('en-US');
  segment = null;
  price = PRICE;
  portedFrom = null;
});

describe('add order page', () => {
  it('places one order for a double click, with an Idempotency-Key', async () => {
    const user = await renderPage();
    const submit = screen.getByTestId('add-order-submit');
    await user.dblClick(submit);
    await waitFor(() => expect(addCalls()).toHaveLength(1));
    // Whatever the second click sets going (its form check included) is done once the button shows loading.
    await waitFor(() => expect(submit).toHaveClass('ant-btn-loading'));
    // Enter in the form while the order is in flight: nothing more.
    await user.type(screen.getByTestId('add-order-account'), '{Enter}');
    await user.click(submit);
    expect(addCalls()).toEqual([
      {
        body: { account: '13800138000', product_key: 'MOBILE-DIRECT-10' },
        key: expect.stringMatching(/^[0-9a-f]{32}$/),
      },
    ]);
    await act(async () => answerAdd[0]?.('placed'));
    await waitFor(() => expect(submit).not.toHaveClass('ant-btn-loading'));
    expect(addCalls()).toHaveLength(1);
  });

  it('shows a risk control refusal under the number', async () => {
    const user = await renderPage();
    await user.click(screen.getByTestId('add-order-submit'));
    await waitFor(() => expect(addCalls()).toHaveLength(1));
    await act(async () => answerAdd[0]?.('in-flight'));
    expect(await screen.findByText(/has an order in progress; wait for it to finish/)).toBeInTheDocument();
  });

  it('retries a lost answer with the same key, and a click after the answer too', async () => {
    const user = await renderPage();
    const submit = screen.getByTestId('add-order-submit');
    await user.click(submit);
    await waitFor(() => expect(addCalls()).toHaveLength(1));
    await act(async () => answerAdd[0]?.('lost'));
    await waitFor(() => expect(submit).not.toHaveClass('ant-btn-loading'));

    await user.click(submit);
    await waitFor(() => expect(addCalls()).toHaveLength(2));
    await act(async () => answerAdd[1]?.('placed'));
    await waitFor(() => expect(submit).not.toHaveClass('ant-btn-loading'));

    await user.click(submit);
    await waitFor(() => expect(addCalls()).toHaveLength(3));
    const [first, retry, again] = addCalls();
    expect(first?.key).toMatch(/^[0-9a-f]{32}$/);
    expect(retry?.key).toBe(first?.key);
    // The same values after the success: the same action, answered with the same order.
    expect(again?.key).toBe(first?.key);
  });

  it('refuses the carrier a number was ported away from, and asks no confirmation for the others', async () => {
    portedFrom = 'mobile';
    const unicom = {
      ...PRICE.offers[0]!,
      product_key: 'UNICOM-DIRECT-10',
      product_name: 'Unicom 10',
      carrier: 'unicom' as const,
    };
    price = { ...PRICE, offers: [...PRICE.offers, unicom] };
    const user = await renderPage();
    expect(await screen.findByTestId('add-order-ported-away')).toHaveTextContent('moved away from China Mobile');
    expect(screen.getByTestId('add-order-submit')).toBeDisabled();
    expect(mockedPost).toHaveBeenCalledWith(PRICE_URL, { account: '13800138000' }, { quietErrors: true });
    await user.click(screen.getByRole('combobox'));
    await user.click(await screen.findByTitle('Unicom 10 · UNICOM-DIRECT-10 · Fast · ¥9.80'));
    await waitFor(() => expect(screen.queryByTestId('add-order-ported-away')).toBeNull());
    // Not the segment's carrier, but the number has moved: no confirmation is asked.
    expect(screen.queryByTestId('add-order-carrier-mismatch')).toBeNull();
    expect(screen.getByTestId('add-order-submit')).toBeEnabled();
  });

  it('offers a product sold in some provinces only for numbers of those', async () => {
    const guangdongOnly = {
      ...PRICE.offers[0]!,
      product_key: 'GD-MOBILE-50',
      product_name: 'Guangdong 50',
      speed: 'slow' as const,
      provinces: [440000],
    };
    price = { ...PRICE, offers: [...PRICE.offers, guangdongOnly] };
    segment = {
      phone: '1380013',
      prefix: '1380013',
      province_code: '110000',
      province: '北京',
      city: '北京',
      province_en: 'Beijing',
      city_en: 'Beijing',
      carrier: 'mobile',
    };
    const user = await renderEmptyPage();
    await user.click(screen.getByRole('combobox'));
    // Before a number is known, everything is offered.
    await screen.findByTitle('Guangdong 50 · GD-MOBILE-50 · Slow · ¥9.80');
    await user.type(screen.getByTestId('add-order-account'), '13800138000');
    await screen.findByTestId('add-order-segment');
    await user.click(screen.getByRole('combobox'));
    await screen.findByTitle('Mobile 10 · MOBILE-DIRECT-10 · Fast · ¥9.80');
    expect(screen.queryByTitle('Guangdong 50 · GD-MOBILE-50 · Slow · ¥9.80')).toBeNull();
  });

  it('places an on-behalf order: direct products only, sent with behalf: true and the third party as remark', async () => {
    const user = await renderEmptyPage();
    await user.click(await screen.findByTestId('add-order-type-behalf'));
    expect(screen.getByTestId('add-order-behalf-hint')).toBeInTheDocument();
    expect(screen.getByTestId('add-order-summary-type')).toHaveTextContent('On-behalf order');
    await user.type(screen.getByTestId('add-order-account'), '13800138000');
    await user.type(screen.getByTestId('add-order-remark'), 'Zhang San');
    await user.click(screen.getByRole('combobox'));
    await screen.findByTitle('Mobile 10 · MOBILE-DIRECT-10 · Fast · ¥9.80');
    // A card is issued by a supplier, never topped up by a person: not offered.
    expect(screen.queryByTitle('Card 10 · MOBILE-CARD-10 · Fast · ¥9.90')).toBeNull();
    await user.click(screen.getByTitle('Mobile 10 · MOBILE-DIRECT-10 · Fast · ¥9.80'));
    const submit = screen.getByTestId('add-order-submit');
    await waitFor(() => expect(submit).toHaveTextContent('Place on-behalf order (charge ¥9.80)'));
    await user.click(submit);
    await waitFor(() => expect(addCalls()).toHaveLength(1));
    expect(addCalls()[0]?.body).toEqual({
      account: '13800138000',
      product_key: 'MOBILE-DIRECT-10',
      behalf: true,
      remark: 'Zhang San',
    });
    await act(async () => answerAdd[0]?.('placed'));
    const placed = await screen.findByTestId('add-order-behalf-placed');
    expect(placed).toHaveTextContent('On-behalf order NO7 placed: a person will top it up');
    expect(screen.getByTestId('add-order-behalf-link')).toHaveAttribute('href', '/order/behalfList');
  });
});
