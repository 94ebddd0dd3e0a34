import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLocale } from '@/lib/i18n';
import { post } from '@/lib/request';
import { withProviders } from '@/test/query-wrapper';
import { type NumberSegment, SEGMENT_LOOKUP_URL } from '../api/add-order';
import { SEGMENT_DEBOUNCE_MS, SegmentHint, typedPrefix } from './segment-hint';

vi.mock('@/lib/request', async (original) => ({ ...(await original<object>()), post: vi.fn() }));
const mockedPost = vi.mocked(post);

const SHENZHEN: NumberSegment = {
  phone: '1380000',
  prefix: '1380000',
  province_code: '440000',
  province: '广东',
  city: '深圳',
  province_en: 'Guangdong',
  city_en: 'Shenzhen',
  carrier: 'mobile',
};

const lookups = () => mockedPost.mock.calls.filter(([url]) => url === SEGMENT_LOOKUP_URL).map(([, body]) => body);

/** Renders the hint for `account` and lets the debounce pass. */
async function renderHint(account: string, wrapper = withProviders()) {
  const view = render(<SegmentHint account={account} />, { wrapper });
  await act(async () => {
    await vi.advanceTimersByTimeAsync(SEGMENT_DEBOUNCE_MS + 10);
  });
  return view;
}

beforeEach(async () => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  mockedPost.mockReset().mockImplementation((url: string, body?: unknown) => {
    const phone = (body as { phone?: string } | undefined)?.phone;
    if (url === SEGMENT_LOOKUP_URL && phone === '1380000') return Promise.resolve(SHENZHEN);
    return Promise.reject(new Error('segment.unknown'));
  });
  await changeLocale('zh-CN');
});

afterEach(() => {
  vi.useRealTimers();
});

describe('segment hint', () => {
  it('reads the first seven digits in any spelling, and nothing before there are seven', () => {
    expect(typedPrefix('138 0000')).toBe('1380000');
    expect(typedPrefix('+86 １３８０００００１２３')).toBe('1380000');
    expect(typedPrefix('138000')).toBeNull();
    expect(typedPrefix('2380000')).toBeNull();
  });

  it('shows province, city and carrier from the seventh digit, asking once per prefix', async () => {
    const wrapper = withProviders();
    const view = await renderHint('138000', wrapper);
    expect(lookups()).toEqual([]);
    view.rerender(<SegmentHint account="1380000" />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(SEGMENT_DEBOUNCE_MS + 10);
    });
    expect(await screen.findByTestId('add-order-segment')).toHaveTextContent('广东 深圳 · 中国移动');
    view.rerender(<SegmentHint account="13800001234" />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(SEGMENT_DEBOUNCE_MS + 10);
    });
    expect(screen.getByTestId('add-order-segment')).toHaveTextContent('广东 深圳 · 中国移动');
    expect(lookups()).toEqual([{ phone: '1380000' }]);
  });

  it('speaks English in en-US', async () => {
    await changeLocale('en-US');
    await renderHint('1380000');
    expect(await screen.findByTestId('add-order-segment')).toHaveTextContent('Shenzhen, Guangdong · China Mobile');
  });

  it("falls back to the segment rule's carrier when the table has no place", async () => {
    await renderHint('15912345678');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10);
    });
    expect(lookups()).toEqual([{ phone: '1591234' }]);
    expect(screen.queryByTestId('add-order-segment')).toBeNull();
    expect(screen.getByText(/中国移动/)).toBeInTheDocument();
  });
});
