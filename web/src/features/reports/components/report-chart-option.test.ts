import { describe, expect, it } from 'vitest';
import { reportChartOption } from './report-chart-option';

describe('reportChartOption', () => {
  it('draws money in yuan and days as MM-DD', () => {
    const option = reportChartOption(
      ['2026-11-01', '2026-11-02'],
      [
        { name: 'Sales', data: [12_345, 100], kind: 'bar', color: '#000', money: true },
        { name: 'Orders', data: [3, 4], kind: 'line', color: '#111' },
      ],
    );
    expect(option.xAxis).toMatchObject({ data: ['11-01', '11-02'] });
    expect(option.series).toMatchObject([
      { name: 'Sales', type: 'bar', data: [123.45, 1] },
      { name: 'Orders', type: 'line', data: [3, 4] },
    ]);
  });

  it('keeps months whole', () => {
    expect(reportChartOption(['2026-10', '2026-11'], []).xAxis).toMatchObject({ data: ['2026-10', '2026-11'] });
  });
});
