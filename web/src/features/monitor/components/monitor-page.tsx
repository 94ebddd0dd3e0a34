import { Badge, Card, Col, Row, Skeleton, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTimeAs } from '@/lib/platform-time';
import { useLiveStream } from '../api/live-stream';
import { Alerts } from './live-alerts';
import { CarrierTable, ChannelTable, LiveFigures, MinuteChart, TopMerchants } from './live-panels';
import { ProvinceVolumes } from './province-volume';
import { RiskRefusals } from './risk-refusals';
import { ServerPanel } from './server-panel';
import '@/locales/monitor-texts';

const STATUS_BADGE = { open: 'success', connecting: 'processing', reconnecting: 'warning' } as const;

/**
 * The live business monitor (admin only): figures pushed by the server every second over
 * Server-Sent Events, never polled; reconnects by itself after a network cut or a restart.
 * The server's own figures stay below as a small panel.
 */
export default function MonitorPage() {
  const { t } = useTranslation();
  const { snapshot, status } = useLiveStream();

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="monitor-page">
      <Card
        title={t('monitor.title')}
        extra={
          <Space>
            <Badge status={STATUS_BADGE[status]} text={t(`monitor.stream.${status}`)} data-testid="live-status" />
            {snapshot ? (
              <Typography.Text type="secondary" data-testid="live-updated">
                {t('monitor.lastUpdated', { time: formatTimeAs(snapshot.at, 'HH:mm:ss') })}
              </Typography.Text>
            ) : null}
          </Space>
        }
      >
        {snapshot ? (
          <Space orientation="vertical" size={16} style={{ width: '100%' }}>
            <Alerts snapshot={snapshot} />
            <LiveFigures snapshot={snapshot} />
            <MinuteChart snapshot={snapshot} />
            <Row gutter={[16, 16]}>
              <Col xs={24} xl={12}>
                <CarrierTable carriers={snapshot.carriers} />
              </Col>
              <Col xs={24} xl={12}>
                <ChannelTable channels={snapshot.channels} />
              </Col>
              <Col xs={24} xl={12}>
                <TopMerchants merchants={snapshot.top_merchants} />
              </Col>
              <Col xs={24} xl={12}>
                <ProvinceVolumes provinces={snapshot.provinces_today ?? []} />
              </Col>
              <Col xs={24} xl={12}>
                <RiskRefusals refused={snapshot.refused_today ?? []} />
              </Col>
            </Row>
          </Space>
        ) : (
          <Skeleton active paragraph={{ rows: 6 }} data-testid="monitor-loading" />
        )}
      </Card>
      <Card size="small" title={t('monitor.server.title')}>
        <ServerPanel />
      </Card>
    </Space>
  );
}
