import { Empty, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatFen } from '@/lib/money';
import { failureReasonText } from '@/lib/order-labels';
import { formatTime } from '@/lib/platform-time';
import type { ChannelAttempt } from '../api/orders';
import '@/locales/channels-texts';

const OUTCOME_COLORS: Record<string, string> = {
  pending: 'processing',
  unknown: 'warning',
  success: 'success',
  failed: 'error',
};

/** A failure reason code (order.failure.*) in the console's language; the channel's own words as written. */
export function attemptAnswerText(answer: string, t: (key: string) => string): string {
  if (!answer) return '-';
  return failureReasonText({ failure_reason: answer, failure_reason_code: answer }, t);
}

/**
 * Administrators' part of the order drawer: every hand-over of the order to a channel.
 * The server leaves `attempts` out for merchants; then there is no section at all.
 */
export function OrderAttemptsSection({ attempts }: { attempts: ChannelAttempt[] | null | undefined }) {
  const { t } = useTranslation();
  if (!attempts) return null;
  return (
    <div data-testid="order-attempts">
      <Typography.Title level={5}>{t('channels.attempts.title')}</Typography.Title>
      <Table<ChannelAttempt>
        size="small"
        rowKey="attempt_no"
        pagination={false}
        dataSource={attempts}
        scroll={{ x: 'max-content' }}
        locale={{
          emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('channels.attempts.empty')} />,
        }}
        columns={[
          { title: t('channels.attempts.no'), dataIndex: 'attempt_no', align: 'right' },
          {
            title: t('channels.attempts.channel'),
            dataIndex: 'channel_name',
            render: (name: string, attempt) => (
              <span data-testid="attempt-channel">
                {name} <Typography.Text type="secondary">({attempt.channel_code})</Typography.Text>
              </span>
            ),
          },
          {
            title: t('channels.attempts.outcome'),
            dataIndex: 'outcome',
            render: (outcome: string) => (
              <Tag color={OUTCOME_COLORS[outcome] ?? 'default'} data-testid="attempt-outcome">
                {outcome in OUTCOME_COLORS ? t(`channels.outcome.${outcome}`) : outcome}
              </Tag>
            ),
          },
          {
            title: t('channels.attempts.cost'),
            dataIndex: 'cost_fen',
            align: 'right',
            render: (fen: number) => formatFen(fen),
          },
          {
            title: t('channels.attempts.latency'),
            dataIndex: 'latency_ms',
            align: 'right',
            render: (ms: number | null | undefined) =>
              ms === null || ms === undefined ? '-' : t('channels.ms', { ms }),
          },
          {
            title: t('channels.attempts.upstreamId'),
            dataIndex: 'upstream_order_id',
            render: (id: string) => <Typography.Text copyable>{id}</Typography.Text>,
          },
          { title: t('channels.attempts.requestedAt'), dataIndex: 'requested_at', render: formatTime },
          {
            title: t('channels.attempts.answer'),
            dataIndex: 'answer',
            width: 220,
            ellipsis: true,
            render: (answer: string) => <span title={answer}>{attemptAnswerText(answer, t)}</span>,
          },
        ]}
      />
    </div>
  );
}
