import { describe, expect, it } from 'vitest';
import { byPeriod, formatRatio, profitParams, salesParams } from './reports';

describe('report requests', () => {
  it('send the breakdown as the comma-separated list and a chosen merchant only', () => {
    const range = { start: '2026-11-01', end: '2026-11-30', grain: 'day' as const };
    expect(profitParams({ ...range, group_by: ['merchant', 'product'] })).toEqual({
      ...range,
      group_by: 'merchant,product',
    });
    expect(profitParams({ ...range, group_by: [], merchant_id: 10001 })).toEqual({
      ...range,
      group_by: '',
      merchant_id: 10001,
    });
    expect(salesParams({ ...range, by_product: true })).toEqual({ ...range, group_by: 'product' });
  });
});

describe('byPeriod', () => {
  it('sums the rows of one period, in the rows’ order', () => {
    const rows = [
      { period: '2026-11-01', a: 1, b: 10 },
      { period: '2026-11-01', a: 2, b: 20 },
      { period: '2026-11-02', a: 5, b: 0 },
    ];
    expect(byPeriod(rows, (row) => [row.a, row.b])).toEqual({
      periods: ['2026-11-01', '2026-11-02'],
      series: [
        [3, 5],
        [30, 0],
      ],
    });
    expect(byPeriod([], () => [1])).toEqual({ periods: [], series: [] });
  });
});

describe('formatRatio', () => {
  it('shows a percentage, and a dash when nothing finished', () => {
    expect(formatRatio(0.8571)).toBe('85.7%');
    expect(formatRatio(1)).toBe('100.0%');
    expect(formatRatio(null)).toBe('—');
  });
});
