import { Empty, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTime } from '@/lib/platform-time';
import { type NotificationAttempt, useOrderNotifications } from '../api/notification-attempts';
import '@/locales/notify-texts';

const STATE_COLORS: Record<string, string> = {
  pending: 'processing',
  delivered: 'success',
  failed: 'warning',
  exhausted: 'error',
};

/** The order drawer's notifications: the state of each and every attempt to deliver it. */
export function OrderNotificationsSection({ orderId }: { orderId: number }) {
  const { t } = useTranslation();
  const answer = useOrderNotifications(orderId);
  const notifications = answer.data?.notifications ?? [];
  return (
    <div data-testid="order-notifications">
      <Typography.Title level={5}>
        {t('notify.attempts.title')}{' '}
        {notifications.map((notification) => (
          <Tag key={notification.id} color={STATE_COLORS[notification.state]} data-testid="order-notification-state">
            {t(`notify.state.${notification.state}`)}
          </Tag>
        ))}
      </Typography.Title>
      <Table<NotificationAttempt>
        size="small"
        rowKey={(row) => `${row.notification_id}-${row.attempt}`}
        loading={answer.isLoading}
        pagination={false}
        dataSource={answer.data?.attempts ?? []}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('notify.attempts.empty')} /> }}
        columns={[
          { title: t('notify.attempts.time'), dataIndex: 'started_at', render: formatTime },
          { title: '#', dataIndex: 'attempt', render: (n: number) => t('notify.attempts.attempt', { n }) },
          {
            title: t('notify.attempts.result'),
            dataIndex: 'delivered',
            render: (delivered: boolean) => (
              <Tag color={delivered ? 'success' : 'error'}>
                {t(delivered ? 'notify.state.delivered' : 'notify.test.failed')}
              </Tag>
            ),
          },
          { title: t('notify.attempts.status'), dataIndex: 'http_status', render: (v: number | null) => v ?? '-' },
          { title: t('notify.attempts.latency'), dataIndex: 'latency_ms', align: 'right' },
          {
            title: t('notify.attempts.answer'),
            dataIndex: 'response_excerpt',
            width: 160,
            ellipsis: true,
            render: (v: string) => v || '-',
          },
          {
            title: t('notify.attempts.error'),
            dataIndex: 'error',
            width: 200,
            ellipsis: true,
            render: (v: string | null) => v || '-',
          },
        ]}
      />
    </div>
  );
}
