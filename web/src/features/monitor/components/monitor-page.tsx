import { ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Col, Result, Row, Skeleton, Space, Statistic, Tag, Typography } from 'antd';
import { formatTime, formatTimeAs } from '@/lib/platform-time';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useMonitorOverview, type MonitorOverview } from '../api/get-monitor-overview';
import { splitUptime } from './format-uptime';

function Figure({ testId, title, children }: { testId: string; title: string; children: ReactNode }) {
  return (
    <Col xs={24} sm={12} lg={8}>
      <Card data-testid={testId}>{<Statistic title={title} valueRender={() => children} />}</Card>
    </Col>
  );
}

function Figures({ data }: { data: MonitorOverview }) {
  const { t } = useTranslation();
  const uptime = splitUptime(data.uptime_seconds);
  return (
    <Row gutter={[16, 16]}>
      <Figure testId="monitor-uptime" title={t('monitor.uptime')}>
        {t('monitor.uptime.format', { ...uptime })}
      </Figure>
      <Figure testId="monitor-version" title={t('monitor.version')}>
        {data.version}
      </Figure>
      <Figure testId="monitor-database" title={t('monitor.databaseKind')}>
        {t(`monitor.database.${data.database_kind}`, { defaultValue: data.database_kind })}
      </Figure>
      <Figure testId="monitor-active-sessions" title={t('monitor.activeSessions')}>
        {data.active_sessions.toLocaleString()}
      </Figure>
      <Figure testId="monitor-request-rate" title={t('monitor.requestRate')}>
        <span>
          {data.requests_per_second.toFixed(2)} {t('monitor.requestRate.unit')}
        </span>
        <Typography.Text type="secondary" style={{ display: 'block', fontSize: 13 }}>
          {t('monitor.requestsLastMinute', { count: data.requests_last_minute })}
        </Typography.Text>
      </Figure>
      <Figure testId="monitor-total-requests" title={t('monitor.totalRequests')}>
        {data.total_requests.toLocaleString()}
      </Figure>
      <Figure testId="monitor-started-at" title={t('monitor.startedAt')}>
        {formatTime(data.started_at)}
      </Figure>
    </Row>
  );
}

/** Admin-only live figures from GET /adminapi/monitor/overview, refreshed every 5 s. */
export default function MonitorPage() {
  const { t } = useTranslation();
  const overview = useMonitorOverview();

  let body: ReactNode;
  if (overview.isPending) {
    body = <Skeleton active paragraph={{ rows: 6 }} data-testid="monitor-loading" />;
  } else if (overview.isError && !overview.data) {
    body = (
      <Result
        status="error"
        title={t('monitor.loadFailed')}
        subTitle={overview.error.message}
        data-testid="monitor-error"
        extra={
          <Button type="primary" icon={<ReloadOutlined />} onClick={() => void overview.refetch()}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  } else {
    body = <Figures data={overview.data!} />;
  }

  return (
    <Card
      data-testid="monitor-page"
      title={t('monitor.title')}
      extra={
        <Space>
          {overview.isError && overview.data ? <Tag color="error">{t('monitor.loadFailed')}</Tag> : null}
          <Typography.Text type="secondary">
            {t('monitor.refreshNote')}
            {overview.dataUpdatedAt
              ? ` · ${t('monitor.lastUpdated', { time: formatTimeAs(overview.dataUpdatedAt, 'HH:mm:ss') })}`
              : ''}
          </Typography.Text>
        </Space>
      }
    >
      {body}
    </Card>
  );
}
