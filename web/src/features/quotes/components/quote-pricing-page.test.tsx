import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLocale } from '@/lib/i18n';
import { ApiError, post } from '@/lib/request';
import { withProviders } from '@/test/query-wrapper';
import { type MarginWarning, PRICING_URLS, type RepricePreview } from '../api/pricing';
import QuotePricingPage, { wholeMerchantId } from './quote-pricing-page';

vi.mock('@/lib/feedback', () => ({ showErrorMessage: vi.fn(), showSuccessMessage: vi.fn() }));
vi.mock('@/lib/request', async (original) => ({ ...(await original<object>()), post: vi.fn() }));
const mockedPost = vi.mocked(post);

const preview: RepricePreview = {
  rows: [
    {
      product_id: 1,
      product_key: 'MOBILE-DIRECT-10',
      product_name: 'Mobile 10',
      face_value_fen: 1000,
      old_price_fen: 985,
      new_price_fen: 976,
      cheapest_cost_fen: 960,
    },
    {
      product_id: 2,
      product_key: 'MOBILE-DIRECT-20',
      product_name: 'Mobile 20',
      face_value_fen: 2000,
      old_price_fen: null,
      new_price_fen: 1951,
      cheapest_cost_fen: null,
    },
  ],
  changed: 2,
  warnings: [],
  min_margin_bp: 50,
  acknowledgement: null,
};

const loss: MarginWarning = {
  product_id: 3,
  product_key: 'MOBILE-DIRECT-50',
  product_name: 'Mobile 50',
  face_value_fen: 5000,
  new_price_fen: 2500,
  cheapest_cost_fen: 4900,
  margin_fen: -2400,
  min_margin_fen: 25,
  problem: 'below_cost',
};

/** 50 %: ¥50 face value for ¥25 against a ¥49 cost, and a thin one. */
const losing: RepricePreview = {
  rows: [
    { ...preview.rows[0], new_price_fen: 500 },
    {
      product_id: 3,
      product_key: 'MOBILE-DIRECT-50',
      product_name: 'Mobile 50',
      face_value_fen: 5000,
      old_price_fen: 4925,
      new_price_fen: 2500,
      cheapest_cost_fen: 4900,
    },
  ],
  changed: 2,
  warnings: [
    loss,
    {
      ...loss,
      product_id: 1,
      product_key: 'MOBILE-DIRECT-10',
      problem: 'under_margin',
      face_value_fen: 1000,
      cheapest_cost_fen: 960,
      new_price_fen: 963,
      margin_fen: 3,
      min_margin_fen: 5,
    },
  ],
  min_margin_bp: 50,
  acknowledgement: 'seen-1',
};

async function previewRule(rate: string) {
  await act(async () => {
    render(<QuotePricingPage />, { wrapper: withProviders() });
  });
  await act(async () => {
    fireEvent.change(screen.getByTestId('pricing-merchant'), { target: { value: '10002' } });
  });
  await act(async () => {
    fireEvent.change(screen.getByTestId('pricing-rate'), { target: { value: rate } });
  });
  await act(async () => {
    fireEvent.click(screen.getByTestId('pricing-preview'));
  });
}

async function applyConfirmed() {
  await act(async () => {
    fireEvent.click(screen.getByTestId('pricing-apply'));
  });
  await act(async () => {
    fireEvent.click(await screen.findByTestId('pricing-apply-confirm'));
  });
}

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

describe('repricing at a loss', () => {
  const rule = { merchant_id: 10002, rate_bp: 5000, rounding: 'half_up' };

  it('names each price that does not pay and applies only once the box is ticked', async () => {
    mockedPost.mockImplementation(async (url: string) => {
      if (url === PRICING_URLS.history) return { list: [], total: 0 };
      return losing;
    });
    await previewRule('50');
    const warnings = await screen.findByTestId('pricing-warnings');
    expect(warnings).toHaveTextContent('2 prices are at or below the cheapest channel');
    expect(warnings).toHaveTextContent('0.5 % of the face value');
    // jsdom is phone-sized: one line per product, every figure kept.
    const lines = within(screen.getByTestId('pricing-warnings-table')).getAllByRole('listitem');
    expect(lines[0]).toHaveTextContent('MOBILE-DIRECT-50: new price 25.00, cheapest cost 49.00, margin -24.00');
    expect(lines[1]).toHaveTextContent('MOBILE-DIRECT-10: new price 9.63, cheapest cost 9.60, margin +0.03');
    expect(screen.getAllByTestId('pricing-flagged-price')).toHaveLength(2);
    // Not without the confirmation.
    expect(screen.getByTestId('pricing-apply')).toBeDisabled();
    await act(async () => {
      fireEvent.click(screen.getByTestId('pricing-acknowledge'));
    });
    expect(screen.getByTestId('pricing-apply')).toBeEnabled();
    await applyConfirmed();
    await waitFor(() =>
      expect(mockedPost).toHaveBeenCalledWith(PRICING_URLS.apply, { ...rule, acknowledge_warnings: 'seen-1' }),
    );
  });

  it('shows the warnings that hold now, unticked, when costs moved since the preview', async () => {
    const moved: RepricePreview = {
      ...losing,
      warnings: [{ ...loss, cheapest_cost_fen: 4800, margin_fen: -2300 }],
      acknowledgement: 'seen-2',
    };
    let previews = 0;
    mockedPost.mockImplementation(async (url: string) => {
      if (url === PRICING_URLS.history) return { list: [], total: 0 };
      if (url === PRICING_URLS.apply) {
        throw new ApiError('changed', {
          kind: 'envelope',
          code: 40900,
          status: 409,
          data: {
            fields: { acknowledge_warnings: 'changed' },
            keys: { acknowledge_warnings: 'quote.rule.warnings_changed' },
          },
        });
      }
      previews += 1;
      return previews === 1 ? losing : moved;
    });
    await previewRule('50');
    await act(async () => {
      fireEvent.click(await screen.findByTestId('pricing-acknowledge'));
    });
    await applyConfirmed();
    await waitFor(() => expect(screen.getByTestId('pricing-warnings')).toHaveTextContent('1 price is'));
    expect(screen.getByTestId('pricing-warnings-table')).toHaveTextContent('cheapest cost 48.00');
    expect(screen.getByTestId('pricing-acknowledge').closest('label')?.querySelector('input')).not.toBeChecked();
    expect(screen.getByTestId('pricing-apply')).toBeDisabled();
  });

  it('applies a rule without warnings as before, with nothing to acknowledge', async () => {
    await previewRule('98.5');
    expect(await screen.findByTestId('pricing-summary')).toBeInTheDocument();
    expect(screen.queryByTestId('pricing-warnings')).toBeNull();
    await applyConfirmed();
    await waitFor(() =>
      expect(mockedPost).toHaveBeenCalledWith(PRICING_URLS.apply, {
        merchant_id: 10002,
        rate_bp: 9850,
        rounding: 'half_up',
      }),
    );
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
