import { Descriptions, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTime } from '@/lib/platform-time';
import { useMonitorOverview } from '../api/get-monitor-overview';
import { splitUptime } from './format-uptime';

/** This server's own figures (uptime, version, sessions, requests), as a small panel. */
export function ServerPanel() {
  const { t } = useTranslation();
  const overview = useMonitorOverview();
  if (overview.isPending) return null;
  if (!overview.data) return <Tag color="error">{t('monitor.loadFailed')}</Tag>;
  const data = overview.data;
  return (
    <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 4 }} data-testid="monitor-server-panel">
      <Descriptions.Item label={t('monitor.uptime')}>
        <span data-testid="monitor-uptime">{t('monitor.uptime.format', { ...splitUptime(data.uptime_seconds) })}</span>
      </Descriptions.Item>
      <Descriptions.Item label={t('monitor.version')}>
        <span data-testid="monitor-version">{data.version}</span>
      </Descriptions.Item>
      <Descriptions.Item label={t('monitor.databaseKind')}>
        <span data-testid="monitor-database">
          {t(`monitor.database.${data.database_kind}`, { defaultValue: data.database_kind })}
        </span>
      </Descriptions.Item>
      <Descriptions.Item label={t('monitor.activeSessions')}>
        <span data-testid="monitor-active-sessions">{data.active_sessions.toLocaleString()}</span>
      </Descriptions.Item>
      <Descriptions.Item label={t('monitor.requestRate')}>
        <span data-testid="monitor-request-rate">
          {data.requests_per_second.toFixed(2)} {t('monitor.requestRate.unit')} ·{' '}
          {t('monitor.requestsLastMinute', { count: data.requests_last_minute })}
        </span>
      </Descriptions.Item>
      <Descriptions.Item label={t('monitor.totalRequests')}>
        <span data-testid="monitor-total-requests">{data.total_requests.toLocaleString()}</span>
      </Descriptions.Item>
      <Descriptions.Item label={t('monitor.startedAt')}>
        <span data-testid="monitor-started-at">{formatTime(data.started_at)}</span>
      </Descriptions.Item>
    </Descriptions>
  );
}
