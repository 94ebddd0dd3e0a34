import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLocale } from '@/lib/i18n';
import { postJson } from '@/lib/request';
import { withProviders } from '@/test/query-wrapper';
import { PRICING_URLS, type RepricePreview } from '../api/pricing';
import QuotePricingPage, { wholeMerchantId } from './quote-pricing-page';

vi.mock('@/lib/feedback', () => ({ showErrorMessage: vi.fn(), showSuccessMessage: vi.fn() }));
vi.mock('@/lib/request', async (original) => ({ ...(await original<object>()), postJson: vi.fn() }));
const mockedPost = vi.mocked(postJson);

const preview: RepricePreview = {
  rows: [
    {
      product_id: 1,
      product_key: 'MOBILE-DIRECT-10',
      product_name: 'Mobile 10',
      face_value_fen: 1000,
      old_price_fen: 985,
      new_price_fen: 976,
    },
    {
      product_id: 2,
      product_key: 'MOBILE-DIRECT-20',
      product_name: 'Mobile 20',
      face_value_fen: 2000,
      old_price_fen: null,
      new_price_fen: 1951,
    },
  ],
  changed: 2,
};

beforeEach(async () => {
  await changeLocale('en-US');
  mockedPost.mockReset().mockImplementation(async (url: string) => {
    if (url === PRICING_URLS.history) return { list: [], total: 0 };
    return preview;
  });
});

describe('quote repricing page', () => {
  it('previews a rule in basis points, then applies the same rule', async () => {
    await act(async () => {
      render(<QuotePricingPage />, { wrapper: withProviders() });
    });
    expect(screen.getByTestId('pricing-preview')).toBeDisabled();
    await act(async () => {
      fireEvent.change(screen.getByTestId('pricing-merchant'), { target: { value: '10002' } });
    });
    await act(async () => {
      fireEvent.change(screen.getByTestId('pricing-rate'), { target: { value: '97.55' } });
    });
    await act(async () => {
      fireEvent.click(screen.getByTestId('pricing-preview'));
    });
    const rule = { merchant_id: 10002, rate_bp: 9755, rounding: 'half_up' };
    await waitFor(() => expect(mockedPost).toHaveBeenCalledWith(PRICING_URLS.preview, rule));
    expect(await screen.findByText('2 products, 2 prices change')).toBeInTheDocument();
    expect(screen.getByText('9.76')).toBeInTheDocument();
    expect(screen.getByText('No quote')).toBeInTheDocument();
    expect(mockedPost).not.toHaveBeenCalledWith(PRICING_URLS.apply, expect.anything());
    await act(async () => {
      fireEvent.click(screen.getByTestId('pricing-apply'));
    });
    await act(async () => {
      fireEvent.click(await screen.findByTestId('pricing-apply-confirm'));
    });
    await waitFor(() => expect(mockedPost).toHaveBeenCalledWith(PRICING_URLS.apply, rule));
  });

  it('refuses a merchant id that is not a whole number in the form, asking the server nothing', async () => {
    await act(async () => {
      render(<QuotePricingPage />, { wrapper: withProviders() });
    });
    await act(async () => {
      fireEvent.change(screen.getByTestId('pricing-merchant'), { target: { value: '99.2' } });
    });
    expect(await screen.findByText('The merchant id is a whole number, 1 or more')).toBeInTheDocument();
    expect(screen.getByTestId('pricing-preview')).toBeDisabled();
    expect(mockedPost).not.toHaveBeenCalled();
    await act(async () => {
      fireEvent.change(screen.getByTestId('pricing-merchant'), { target: { value: '10002' } });
    });
    await waitFor(() =>
      expect(mockedPost).toHaveBeenCalledWith(PRICING_URLS.history, expect.objectContaining({ merchant_id: 10002 })),
    );
    // The message leaves with a motion.
    await waitFor(() => expect(screen.queryByText('The merchant id is a whole number, 1 or more')).toBeNull());
  });
});

describe('wholeMerchantId', () => {
  it('takes whole numbers from 1 up and nothing else', () => {
    expect(wholeMerchantId(10001)).toBe(10001);
    expect(wholeMerchantId(99.2)).toBeNull();
    expect(wholeMerchantId(0)).toBeNull();
    expect(wholeMerchantId(-3)).toBeNull();
    expect(wholeMerchantId(null)).toBeNull();
    expect(wholeMerchantId('12')).toBeNull();
  });
});
