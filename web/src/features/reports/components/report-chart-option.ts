import type { EChartOption } from '@/components/echart/echart';

export interface ReportSeries {
  name: string;
  /** One value per period. */
  data: number[];
  kind: 'bar' | 'line';
  color: string;
  /** Money in fen, shown on the axis and in the tooltip as yuan. */
  money?: boolean;
}

/**
 * A report's chart: per period, counts or money as bars and a line (money in yuan: fen / 100,
 * so the axis reads as the table does). Periods are `YYYY-MM-DD` or `YYYY-MM`; days are
 * shown as `MM-DD`.
 */
export function reportChartOption(periods: string[], series: ReportSeries[]): EChartOption {
  return {
    animation: false,
    tooltip: { trigger: 'axis' },
    legend: { bottom: 0 },
    grid: { top: 16, left: 64, right: 16, bottom: 48 },
    xAxis: { type: 'category', data: periods.map((period) => (period.length === 10 ? period.slice(5) : period)) },
    yAxis: { type: 'value' },
    series: series.map((one) => ({
      name: one.name,
      type: one.kind,
      color: one.color,
      barMaxWidth: 28,
      data: one.money ? one.data.map((fen) => fen / 100) : one.data,
    })),
  };
}
