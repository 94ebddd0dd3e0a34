import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLocale } from '@/lib/i18n';
import { ApiError, post } from '@/lib/request';
import { withProviders } from '@/test/query-wrapper';
import { CHANNEL_URLS } from '../api/channels';
import { type SupplyRow, supplyRows } from '../api/supplies';
import { BulkEditDialog } from './supplies-drawer';
import { testChannel } from './test-channel';
import '@/locales/channels-texts';

vi.mock('@/lib/feedback', () => ({ showErrorMessage: vi.fn(), showSuccessMessage: vi.fn() }));
vi.mock('@/lib/request', async (original) => ({ ...(await original<object>()), post: vi.fn() }));
const mockedPost = vi.mocked(post);

const channel = testChannel({ id: 7 });

let saveAnswer: () => Promise<unknown> = async () => null;

beforeEach(async () => {
  await changeLocale('en-US');
  saveAnswer = async () => null;
  mockedPost.mockReset().mockImplementation(async (url: string) => {
    if (url === CHANNEL_URLS.saveProducts) return saveAnswer();
    throw new Error(url);
  });
});

const rows: SupplyRow[] = supplyRows(
  [
    { id: 1, product_key: 'MOBILE-DIRECT-10', name: 'Mobile 10', face_value_fen: 1000, status: 1 },
    { id: 2, product_key: 'MOBILE-DIRECT-20', name: 'Mobile 20', face_value_fen: 2000, status: 1 },
    { id: 3, product_key: 'MOBILE-DIRECT-30', name: 'Mobile 30', face_value_fen: 3000, status: 1 },
  ],
  [{ product_key: 'MOBILE-DIRECT-10', cost_fen: 960, priority: 10, weight: 3, enabled: true, provinces: [440000] }],
);

/** The bulk dialog for the chosen rows (the check boxes are driven in e2e/channels.spec.ts). */
async function chooseAndOpen(keys: string[], onClose = vi.fn()) {
  const chosen = rows.filter((row) => keys.includes(row.product_key));
  await act(async () => {
    render(<BulkEditDialog channel={channel} rows={chosen} onClose={onClose} />, { wrapper: withProviders() });
  });
  return onClose;
}

async function submitBulk() {
  await act(async () => {
    fireEvent.click(await screen.findByTestId('supplies-bulk-submit'));
  });
}

describe("bulk edit of a channel's products", () => {
  it('sets a share of each face value as the cost of the chosen rows, in fen, keeping the rest', async () => {
    const onClose = await chooseAndOpen(['MOBILE-DIRECT-10', 'MOBILE-DIRECT-20']);
    await act(async () => {
      fireEvent.click(screen.getByText('Share of face value'));
    });
    await act(async () => {
      fireEvent.change(screen.getByTestId('supplies-bulk-cost'), { target: { value: '96.55' } });
    });
    await submitBulk();
    await waitFor(() =>
      expect(mockedPost).toHaveBeenCalledWith(CHANNEL_URLS.saveProducts, {
        id: 7,
        items: [
          { product_key: 'MOBILE-DIRECT-10', cost_fen: 966, priority: 10, weight: 3, enabled: true },
          { product_key: 'MOBILE-DIRECT-20', cost_fen: 1931, priority: 0, weight: 1, enabled: true },
        ],
      }),
    );
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
  });

  it('asks for a cost when a chosen product is not supplied yet, and sends nothing', async () => {
    await chooseAndOpen(['MOBILE-DIRECT-30']);
    await submitBulk();
    expect(await screen.findByText('Set a cost: some chosen products are not supplied yet')).toBeInTheDocument();
    expect(mockedPost).not.toHaveBeenCalledWith(CHANNEL_URLS.saveProducts, expect.anything());
  });

  it("shows the server's item message on the bulk form's field", async () => {
    saveAnswer = async () => {
      throw new ApiError('bad', {
        kind: 'envelope',
        code: 40000,
        data: { fields: { 'items[0].weight': 'Weight must be 0 to 10000' } },
      });
    };
    await chooseAndOpen(['MOBILE-DIRECT-10']);
    await submitBulk();
    expect(await screen.findByText('Weight must be 0 to 10000')).toBeInTheDocument();
  });

  it("edits one row's coverage: its provinces shown, national sent as an empty list", async () => {
    const onClose = await chooseAndOpen(['MOBILE-DIRECT-10']);
    expect(screen.getByTestId('supplies-bulk-provinces')).toHaveTextContent('Guangdong');
    await act(async () => {
      fireEvent.click(screen.getByText('National'));
    });
    expect(screen.queryByTestId('supplies-bulk-provinces')).toBeNull();
    await submitBulk();
    await waitFor(() =>
      expect(mockedPost).toHaveBeenCalledWith(CHANNEL_URLS.saveProducts, {
        id: 7,
        items: [
          { product_key: 'MOBILE-DIRECT-10', cost_fen: 960, priority: 10, weight: 3, enabled: true, provinces: [] },
        ],
      }),
    );
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
  });
});
