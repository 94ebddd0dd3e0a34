import { Card, Col, Empty, Row, Statistic, Table } from 'antd';
import { useMemo } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { DefinitionHint } from '@/components/definition-hint/definition-hint';
import { EChart } from '@/components/echart/echart';
import { formatFen } from '@/lib/money';
import { carrierKey, durationUnits, formatDuration } from '@/lib/order-labels';
import type { CarrierRatio, ChannelRatio, LiveSnapshot, MerchantVolume } from '../api/live-stream';
import { CARRIER_NAMES, formatPermille, formatRatio, hourTotal, minuteChartOption } from './live-format';

function Figure({ testId, title, value }: { testId: string; title: string; value: string | number }) {
  return (
    <Col xs={12} md={8} xl={6}>
      <Card size="small">
        <Statistic title={title} value={value} data-testid={testId} />
      </Card>
    </Col>
  );
}

/** The headline figures: the hour's orders, what waits, and how long results take. */
export function LiveFigures({ snapshot }: { snapshot: LiveSnapshot }) {
  const { t } = useTranslation();
  const units = durationUnits(t);
  const oldest = snapshot.oldest_waiting_seconds ?? null;
  return (
    <Row gutter={[12, 12]}>
      <Figure testId="live-placed" title={t('monitor.live.placed')} value={hourTotal(snapshot, 'placed')} />
      <Figure testId="live-succeeded" title={t('monitor.live.succeeded')} value={hourTotal(snapshot, 'succeeded')} />
      <Figure testId="live-failed" title={t('monitor.live.failed')} value={hourTotal(snapshot, 'failed')} />
      <Figure testId="live-in-flight" title={t('monitor.live.inFlight')} value={snapshot.in_flight} />
      <Figure testId="live-manual-review" title={t('monitor.live.manualReview')} value={snapshot.manual_review} />
      <Figure
        testId="live-oldest"
        title={t('monitor.live.oldestWaiting')}
        value={oldest === null ? '-' : formatDuration(oldest * 1000, units)}
      />
      <Figure testId="live-p50" title={t('monitor.live.p50')} value={formatDuration(snapshot.p50_ms, units)} />
      <Figure testId="live-p95" title={t('monitor.live.p95')} value={formatDuration(snapshot.p95_ms, units)} />
      <Figure
        testId="live-notify-backlog"
        title={t('monitor.live.notifyBacklog')}
        value={snapshot.notifications.backlog}
      />
      <Figure
        testId="live-notify-failure"
        title={t('monitor.live.notifyFailure')}
        value={formatPermille(snapshot.notifications.failure_permille_60m)}
      />
    </Row>
  );
}

export function MinuteChart({ snapshot }: { snapshot: LiveSnapshot }) {
  const { t } = useTranslation();
  const labels = useMemo(
    () => ({
      placed: t('monitor.live.series.placed'),
      succeeded: t('monitor.live.series.succeeded'),
      failed: t('monitor.live.series.failed'),
    }),
    [t],
  );
  const option = useMemo(() => minuteChartOption(snapshot, labels), [snapshot, labels]);
  return (
    <Card size="small" title={t('monitor.live.chartTitle')} data-testid="live-chart-card">
      <EChart option={option} label={t('monitor.live.chartTitle')} testId="live-chart" />
    </Card>
  );
}

export function CarrierTable({ carriers }: { carriers: CarrierRatio[] }) {
  const { t } = useTranslation();
  return (
    <Card size="small" title={t('monitor.live.carriers')}>
      <Table<CarrierRatio>
        size="small"
        rowKey="carrier"
        pagination={false}
        dataSource={carriers}
        data-testid="live-carriers"
        locale={{ emptyText: <Empty description={t('monitor.live.noResults')} /> }}
        columns={[
          {
            title: t('common.column.carrier'),
            dataIndex: 'carrier',
            render: (carrier: number) => t(carrierKey(CARRIER_NAMES[carrier] ?? String(carrier))),
          },
          ...ratioColumns<CarrierRatio>(t),
        ]}
      />
    </Card>
  );
}

/** The 5- and 60-minute success columns shared by the carrier and channel tables. */
function ratioColumns<T extends CarrierRatio | ChannelRatio>(t: TFunction) {
  return [
    {
      title: t('monitor.live.ratio5'),
      key: 'r5',
      render: (_: unknown, row: T) => formatRatio(row.success_permille_5m, row.succeeded_5m, row.failed_5m),
    },
    {
      title: t('monitor.live.ratio60'),
      key: 'r60',
      render: (_: unknown, row: T) => formatRatio(row.success_permille_60m, row.succeeded_60m, row.failed_60m),
    },
  ];
}

/**
 * Success ratio per channel (supplier): each attempt's final answer counts for its channel; the
 * definition the channels list and reconciliation share, said in the title's tooltip.
 */
export function ChannelTable({ channels }: { channels: ChannelRatio[] }) {
  const { t } = useTranslation();
  return (
    <Card
      size="small"
      title={
        <DefinitionHint
          label={t('monitor.live.channels')}
          definition={t('monitor.live.ratioDefinition')}
          testId="live-channels-title"
        />
      }
    >
      <Table<ChannelRatio>
        size="small"
        rowKey="channel_id"
        pagination={false}
        dataSource={channels}
        scroll={{ x: 'max-content' }}
        data-testid="live-channels"
        locale={{ emptyText: <Empty description={t('monitor.live.noChannelResults')} /> }}
        columns={[
          { title: t('monitor.live.channel'), key: 'c', render: (_, row) => row.name || `#${row.channel_id}` },
          ...ratioColumns<ChannelRatio>(t),
          {
            title: t('monitor.live.ratioToday'),
            key: 'today',
            render: (_: unknown, row: ChannelRatio) =>
              formatRatio(row.success_permille_today, row.succeeded_today, row.failed_today),
          },
        ]}
      />
    </Card>
  );
}

export function TopMerchants({ merchants }: { merchants: MerchantVolume[] }) {
  const { t } = useTranslation();
  return (
    <Card size="small" title={t('monitor.live.topMerchants')}>
      <Table<MerchantVolume>
        size="small"
        rowKey="merchant_id"
        pagination={false}
        dataSource={merchants}
        data-testid="live-top-merchants"
        locale={{ emptyText: <Empty description={t('monitor.live.noOrdersToday')} /> }}
        columns={[
          { title: t('monitor.live.merchant'), key: 'm', render: (_, row) => `${row.name} (${row.merchant_id})` },
          { title: t('monitor.live.orders'), dataIndex: 'orders', align: 'right' },
          {
            title: t('monitor.live.amount'),
            dataIndex: 'amount_fen',
            align: 'right',
            render: (fen: number) => `¥${formatFen(fen)}`,
          },
        ]}
      />
    </Card>
  );
}
