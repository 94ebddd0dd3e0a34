import { describe, expect, it } from 'vitest';
import { formatPermille, hourTotal, minuteChartOption } from './live-format';
import { testSnapshot } from './test-snapshot';

const snapshot = testSnapshot({
  minutes: [
    { minute_start: Date.UTC(2026, 0, 1, 0, 0), placed: 3, succeeded: 1, failed: 0 },
    { minute_start: Date.UTC(2026, 0, 1, 0, 1), placed: 2, succeeded: 2, failed: 1 },
  ],
});

describe('live figures', () => {
  it('sums the hour per series', () => {
    expect(hourTotal(snapshot, 'placed')).toBe(5);
    expect(hourTotal(snapshot, 'failed')).toBe(1);
  });

  it('shows per mille as a percentage', () => {
    expect(formatPermille(985)).toBe('98.5 %');
    expect(formatPermille(1000)).toBe('100.0 %');
    expect(formatPermille(null)).toBe('-');
  });

  it('draws one line per series over the minutes, in Beijing time', () => {
    const option = minuteChartOption(snapshot, { placed: 'P', succeeded: 'S', failed: 'F' });
    const series = option.series as { name: string; data: number[] }[];
    expect(series.map((line) => line.name)).toEqual(['P', 'S', 'F']);
    expect(series[0].data).toEqual([3, 2]);
    expect((option.xAxis as { data: string[] }).data).toEqual(['08:00', '08:01']);
  });
});
