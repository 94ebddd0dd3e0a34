import { Alert, Card, Col, Empty, Row, Skeleton, Space, Tag } from 'antd';
import type { UseQueryResult } from '@tanstack/react-query';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatFen } from '@/lib/money';
import { carrierKey } from '@/lib/order-labels';
import { useCarrierCounts, useFaceValueCounts, useHourCounts, useOverviewDays } from '../api/order-figures';
import { EChart, type EChartOption } from '@/components/echart/echart';
import { LoadFailed } from './content-widgets';

function ChartCard<T>({
  title,
  query,
  isEmpty,
  testId,
  children,
}: {
  title: ReactNode;
  query: UseQueryResult<T>;
  isEmpty: (data: T) => boolean;
  testId: string;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Card title={title} extra={<Tag color="green">{t('template.realData')}</Tag>} data-testid={testId}>
      {query.isPending ? (
        <Skeleton active />
      ) : query.isError ? (
        <LoadFailed onRetry={() => void query.refetch()} testId={`${testId}-error`} />
      ) : isEmpty(query.data) ? (
        <Empty description={t('template.viz.empty')} />
      ) : (
        children(query.data)
      )}
    </Card>
  );
}

/**
 * Data visualization: multi-dimensional charts of the platform's real orders — by
 * carrier, by face value, by hour, and the daily success ratio — instead of invented data.
 */
export default function DataVisualizationPage() {
  const { t } = useTranslation();
  const carriers = useCarrierCounts();
  const faceValues = useFaceValueCounts();
  const hours = useHourCounts();
  const days = useOverviewDays();

  const carrierOption = useMemo(
    (): EChartOption => ({
      tooltip: { trigger: 'item' },
      legend: { bottom: 0 },
      series: [
        {
          type: 'pie',
          radius: ['40%', '68%'],
          data: (carriers.data ?? []).map((row) => ({ name: t(carrierKey(row.carrier)), value: row.count })),
        },
      ],
    }),
    [carriers.data, t],
  );
  const faceValueOption = useMemo(
    (): EChartOption => ({
      tooltip: { trigger: 'axis' },
      grid: { left: 48, right: 16, top: 16, bottom: 32 },
      xAxis: { type: 'category', data: (faceValues.data ?? []).map((row) => formatFen(row.faceValueFen)) },
      yAxis: { type: 'value', minInterval: 1 },
      series: [{ name: t('template.viz.orders'), type: 'bar', data: (faceValues.data ?? []).map((row) => row.count) }],
    }),
    [faceValues.data, t],
  );
  const hourOption = useMemo(
    (): EChartOption => ({
      tooltip: { trigger: 'axis' },
      grid: { left: 48, right: 16, top: 16, bottom: 32 },
      xAxis: { type: 'category', data: Array.from({ length: 24 }, (_, hour) => t('template.viz.hour', { hour })) },
      yAxis: { type: 'value', minInterval: 1 },
      series: [{ name: t('template.viz.orders'), type: 'bar', data: hours.data?.hours ?? [] }],
    }),
    [hours.data, t],
  );
  const ratioOption = useMemo((): EChartOption => {
    const rows = days.data ?? [];
    return {
      tooltip: { trigger: 'axis' },
      legend: { bottom: 0 },
      grid: { left: 48, right: 48, top: 16, bottom: 48 },
      xAxis: { type: 'category', data: rows.map((row) => row.date.slice(5)) },
      yAxis: [
        { type: 'value', minInterval: 1 },
        { type: 'value', min: 0, max: 100, axisLabel: { formatter: '{value}%' } },
      ],
      series: [
        { name: t('template.viz.success'), type: 'bar', stack: 'orders', data: rows.map((row) => row.success) },
        { name: t('template.viz.failure'), type: 'bar', stack: 'orders', data: rows.map((row) => row.failure) },
        {
          name: t('template.viz.ratio'),
          type: 'line',
          yAxisIndex: 1,
          // Whole percent for display; the counts themselves stay integers.
          data: rows.map((row) =>
            row.success + row.failure > 0 ? Math.round((row.success * 100) / (row.success + row.failure)) : null,
          ),
        },
      ],
    };
  }, [days.data, t]);

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="data-visualization-page">
      <Alert type="success" showIcon title={t('template.viz.realNote')} />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={10}>
          <ChartCard
            title={t('template.viz.byCarrier')}
            query={carriers}
            isEmpty={(rows) => rows.every((row) => row.count === 0)}
            testId="viz-carrier"
          >
            {() => <EChart option={carrierOption} label={t('template.viz.byCarrier')} testId="viz-carrier-chart" />}
          </ChartCard>
        </Col>
        <Col xs={24} xl={14}>
          <ChartCard
            title={t('template.viz.byFaceValue')}
            query={faceValues}
            isEmpty={(rows) => rows.every((row) => row.count === 0)}
            testId="viz-face-value"
          >
            {() => (
              <EChart option={faceValueOption} label={t('template.viz.byFaceValue')} testId="viz-face-value-chart" />
            )}
          </ChartCard>
        </Col>
        <Col xs={24} xl={12}>
          <ChartCard
            title={t('template.viz.byHour', { count: hours.data?.sample ?? 0 })}
            query={hours}
            isEmpty={(data) => data.sample === 0}
            testId="viz-hour"
          >
            {() => (
              <EChart
                option={hourOption}
                label={t('template.viz.byHour', { count: hours.data?.sample ?? 0 })}
                testId="viz-hour-chart"
              />
            )}
          </ChartCard>
        </Col>
        <Col xs={24} xl={12}>
          <ChartCard
            title={t('template.viz.successRatio')}
            query={days}
            isEmpty={(rows) => rows.length === 0}
            testId="viz-ratio"
          >
            {() => <EChart option={ratioOption} label={t('template.viz.successRatio')} testId="viz-ratio-chart" />}
          </ChartCard>
        </Col>
      </Row>
    </Space>
  );
}
