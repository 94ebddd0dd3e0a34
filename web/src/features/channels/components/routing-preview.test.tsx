import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLocale } from '@/lib/i18n';
import { post } from '@/lib/request';
import { withProviders } from '@/test/query-wrapper';
import { CATALOGUE_URL, CHANNEL_URLS, type RouteItem } from '../api/channels';
import { RoutingPreview } from './routing-preview';
import '@/locales/channels-texts';

vi.mock('@/lib/feedback', () => ({ showErrorMessage: vi.fn(), showSuccessMessage: vi.fn() }));
vi.mock('@/lib/request', async (original) => ({ ...(await original<object>()), post: vi.fn() }));
const mockedPost = vi.mocked(post);

const route = (id: number, code: string, extra: Partial<RouteItem>): RouteItem => ({
  channel_id: id,
  code,
  name: code,
  cost_fen: 960,
  priority: 10,
  weight: 1,
  provinces: [],
  first_choice_share: 0,
  excluded: null,
  merchant_price_fen: null,
  margin_fen: null,
  at_or_below_cost: false,
  ...extra,
});

async function renderPreview(routes: RouteItem[]) {
  mockedPost.mockReset().mockImplementation(async (url: string) => {
    if (url === CATALOGUE_URL) return [];
    if (url === CHANNEL_URLS.routing) return routes;
    if (url === '/adminapi/admin/merchant/list') return { list: [], total: 0 };
    throw new Error(url);
  });
  await act(async () => {
    render(<RoutingPreview productKey="MOBILE-DIRECT-10" onProduct={() => {}} />, { wrapper: withProviders() });
  });
  return screen.findByTestId('routing-table');
}

describe('routing preview', () => {
  beforeEach(async () => {
    await changeLocale('zh-CN');
  });

  it('numbers the candidates and translates why the others are out', async () => {
    const table = await renderPreview([
      route(3, 'sim-reliable', { first_choice_share: 1, priority: 5 }),
      route(1, 'sandbox', { priority: 0 }),
      route(2, 'sim-cheap', { excluded: 'channel_disabled' }),
      route(4, 'future', { excluded: 'something_new' as RouteItem['excluded'] }),
    ]);
    expect(mockedPost).toHaveBeenCalledWith(CHANNEL_URLS.routing, { product_key: 'MOBILE-DIRECT-10' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('sim-reliable');
    expect(rows[0]).toHaveTextContent('候选');
    // jsdom is phone-sized: the order, the channel and the decision are the columns kept there.
    expect(rows.map((row) => row.querySelector('[data-column="order"]')?.textContent)).toEqual(['1', '2', '-', '-']);
    expect(rows[1]).toHaveTextContent('备选');
    expect(within(rows[2]).getByTestId('routing-exclusion')).toHaveTextContent('渠道已停用');
    // A reason this console does not know yet is shown as the server wrote it.
    expect(within(rows[3]).getByTestId('routing-exclusion')).toHaveTextContent('something_new');
    expect(screen.queryByTestId('routing-none')).toBeNull();
  });

  it('asks about a number however it is written, once it is whole', async () => {
    await renderPreview([route(3, 'sim-reliable', { first_choice_share: 1 })]);
    const field = screen.getByTestId('routing-account');
    for (const typed of ['+86 138', '+86 138 0013 8000', '１３８００１３８０００']) {
      await act(async () => {
        fireEvent.change(field, { target: { value: typed } });
      });
    }
    const asked = mockedPost.mock.calls.filter(([url]) => url === CHANNEL_URLS.routing).map(([, body]) => body);
    expect(asked).toContainEqual({ product_key: 'MOBILE-DIRECT-10', account: '13800138000' });
    expect(asked.filter((body) => JSON.stringify(body).includes('"account":"+86'))).toEqual([]);
    expect(asked.filter((body) => JSON.stringify(body).includes('138"'))).toEqual([]);
  });

  it('warns when no channel would take the product', async () => {
    await changeLocale('en-US');
    await renderPreview([route(2, 'sim-cheap', { excluded: 'balance_short' })]);
    expect(await screen.findByTestId('routing-none')).toHaveTextContent('fails at once');
    expect(screen.getByTestId('routing-exclusion')).toHaveTextContent('Balance with the supplier too low');
  });

  it("flags the channels whose cost a merchant's price does not cover", async () => {
    await changeLocale('en-US');
    const priced = { merchant_price_fen: 4925 };
    const table = await renderPreview([
      route(1, 'sim-cheap', { ...priced, cost_fen: 4800, margin_fen: 125, first_choice_share: 1 }),
      route(2, 'sim-reliable', { ...priced, cost_fen: 4925, margin_fen: 0, at_or_below_cost: true, priority: 5 }),
    ]);
    expect(await screen.findByTestId('routing-loss')).toHaveTextContent(
      "The merchant's price of 49.25 yuan is at or below the cost of 1 candidate channel:",
    );
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0].querySelector('[data-column="margin"]')).toHaveTextContent('+1.25');
    expect(within(rows[1]).getByTestId('routing-at-cost')).toHaveTextContent('At or below cost 0.00');
  });

  it('says which channels do not cover the province, or offer the other speed only', async () => {
    const rows = async () =>
      within(await screen.findByTestId('routing-table'))
        .getAllByRole('row')
        .slice(1);
    await renderPreview([
      route(1, 'sim-reliable', { first_choice_share: 1 }),
      route(2, 'sim-south', { excluded: 'province_not_covered', provinces: [440000, 330000] }),
      route(3, 'slow-only', { excluded: 'speed_not_offered' }),
    ]);
    expect(screen.getByTestId('routing-any-province')).toHaveTextContent('不检查覆盖范围');
    let [, south, slow] = await rows();
    expect(within(south).getByTestId('routing-exclusion')).toHaveTextContent('不覆盖该省份');
    expect(within(slow).getByTestId('routing-exclusion')).toHaveTextContent('只供应另一速度');
    await act(async () => {
      await changeLocale('en-US');
    });
    [, south, slow] = await rows();
    expect(within(south).getByTestId('routing-exclusion')).toHaveTextContent("Does not cover the number's province");
    expect(within(slow).getByTestId('routing-exclusion')).toHaveTextContent(
      'Supplies the other speed (fast/slow) only',
    );
  });
});
