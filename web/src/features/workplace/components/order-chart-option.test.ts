import { describe, expect, it } from 'vitest';
import { orderChartOption } from './order-chart-option';

describe('orderChartOption', () => {
  it('stacks succeeded, failed and the rest of each day', () => {
    const option = orderChartOption(
      [
        { date: '2026-11-22', success: 5, failure: 1, total: 9 },
        { date: '2026-11-23', success: 0, failure: 0, total: 0 },
      ],
      { success: 'S', failure: 'F', other: 'O' },
    );
    const series = option.series as { name: string; stack: string; data: number[] }[];
    expect(series.map((bar) => [bar.name, bar.data])).toEqual([
      ['S', [5, 0]],
      ['F', [1, 0]],
      ['O', [3, 0]],
    ]);
    expect(series.every((bar) => bar.stack === 'orders')).toBe(true);
    expect((option.xAxis as { data: string[] }).data).toEqual(['11-22', '11-23']);
  });
});
