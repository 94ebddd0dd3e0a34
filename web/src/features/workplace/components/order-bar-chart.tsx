import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '@/components/echart/echart';
import type { OverviewDay } from '../api/overview';
import { orderChartOption } from './order-chart-option';

/**
 * The last days' orders as stacked bars (success, failure, in progress), drawn by ECharts.
 * Loaded apart from the workplace (React.lazy): the greeting and figures paint first.
 */
export default function OrderBarChart({ days }: { days: OverviewDay[] }) {
  const { t } = useTranslation();
  const option = useMemo(
    () =>
      orderChartOption(days, {
        success: t('workplace.chart.success'),
        failure: t('workplace.chart.failure'),
        other: t('workplace.chart.other'),
      }),
    [days, t],
  );
  return (
    <div className="workplace__chart">
      <EChart
        option={option}
        height={240}
        label={t('workplace.chart.title', { count: days.length })}
        testId="workplace-chart"
      />
    </div>
  );
}
