import { Alert, Card, List, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { listLink } from '@/components/list-page/url-filters';
import { formatFen } from '@/lib/money';
import { durationUnits, formatDuration } from '@/lib/order-labels';
import { formatTimeAs } from '@/lib/platform-time';
import type { LiveAlert, LiveSnapshot } from '../api/live-stream';
import { formatPermille } from './live-format';

const NOTIFICATION_LINK = { texts: ['state'], numbers: ['merchantId'] } as const;

/** The list page that shows what an alert is about (filtered to it where the list can be). */
export function alertLink(alert: LiveAlert): string | null {
  switch (alert.kind) {
    case 'review_aging':
      return '/order/review';
    case 'callback_failing':
      return listLink('/order/notifications', { merchantId: alert.merchant_id, state: 'failed' }, NOTIFICATION_LINK);
    case 'notification_exhausted':
      return listLink('/order/notifications', { merchantId: alert.merchant_id, state: 'exhausted' }, NOTIFICATION_LINK);
    case 'notification_backlog':
      return listLink('/order/notifications', { state: 'failed' }, NOTIFICATION_LINK);
    case 'channel_paused':
      return '/qoute/channels';
    default:
      return null;
  }
}

export function alertText(alert: LiveAlert, t: TFunction): string {
  const merchant = `${alert.name} (${alert.merchant_id})`;
  switch (alert.kind) {
    case 'review_aging':
      return t('monitor.live.alert.reviewAging', {
        count: alert.count,
        oldest: formatDuration(alert.oldest_seconds * 1000, durationUnits(t)),
        line: formatDuration(alert.threshold_seconds * 1000, durationUnits(t)),
        lineCount: alert.threshold,
      });
    case 'callback_failing':
      return t('monitor.live.alert.callbackFailing', {
        name: merchant,
        failed: alert.failed,
        count: alert.count,
        ratio: formatPermille(alert.failure_permille),
        line: formatPermille(alert.threshold_permille),
      });
    case 'notification_backlog':
      return t('monitor.live.alert.notificationBacklog', { count: alert.count, line: alert.threshold });
    case 'notification_exhausted':
      return t('monitor.live.alert.notificationExhausted', { name: merchant, count: alert.count });
    case 'channel_paused':
      return t('monitor.live.alert.channelPaused', {
        name: alert.name,
        reason: t(`monitor.live.pauseReason.${alert.pause_reason}`, { defaultValue: alert.pause_reason }),
        until: formatTimeAs(alert.paused_until, 'HH:mm:ss'),
      });
    default:
      return t('monitor.live.alert.lowBalance', {
        name: merchant,
        balance: formatFen(alert.balance_fen),
        line: formatFen(alert.threshold_fen),
      });
  }
}

/** What needs a person now, each with a link to the list that shows it. */
export function Alerts({ snapshot }: { snapshot: LiveSnapshot }) {
  const { t } = useTranslation();
  return (
    <Card size="small" title={t('monitor.live.alerts')} data-testid="live-alerts">
      {snapshot.alerts.length === 0 ? (
        <Typography.Text type="secondary">{t('monitor.live.noAlerts')}</Typography.Text>
      ) : (
        <List
          size="small"
          dataSource={snapshot.alerts}
          renderItem={(alert) => {
            const link = alertLink(alert);
            return (
              <List.Item key={`${alert.kind}-${alert.merchant_id}-${alert.channel_id}`}>
                <Alert
                  type={alert.kind === 'low_balance' || alert.kind === 'notification_backlog' ? 'warning' : 'error'}
                  showIcon
                  style={{ width: '100%' }}
                  title={alertText(alert, t)}
                  action={
                    link ? (
                      <Link to={link} data-testid={`live-alert-link-${alert.kind}`}>
                        {t('monitor.live.alert.open')}
                      </Link>
                    ) : undefined
                  }
                  data-testid={`live-alert-${alert.kind}`}
                />
              </List.Item>
            );
          }}
        />
      )}
    </Card>
  );
}
