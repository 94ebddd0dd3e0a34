import type { EChartOption } from '@/components/echart/echart';
import type { OverviewDay } from '../api/overview';

export const ORDER_CHART_COLORS = { success: '#00b42a', failure: '#f53f3f', other: '#c9cdd4' } as const;

export interface OrderChartLabels {
  success: string;
  failure: string;
  other: string;
}

/** The last days' orders as stacked bars: succeeded, failed, and the rest (in progress). */
export function orderChartOption(days: OverviewDay[], labels: OrderChartLabels): EChartOption {
  const parts = {
    success: days.map((day) => day.success),
    failure: days.map((day) => day.failure),
    other: days.map((day) => Math.max(0, day.total - day.success - day.failure)),
  };
  return {
    animation: false,
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { bottom: 0 },
    grid: { top: 16, left: 40, right: 12, bottom: 48 },
    xAxis: { type: 'category', data: days.map((day) => day.date.slice(5)) },
    yAxis: { type: 'value', minInterval: 1 },
    series: (['success', 'failure', 'other'] as const).map((key) => ({
      name: labels[key],
      type: 'bar' as const,
      stack: 'orders',
      barMaxWidth: 36,
      color: ORDER_CHART_COLORS[key],
      data: parts[key],
    })),
  };
}
