import { Alert, Button, Descriptions, Modal, Radio, Skeleton, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSuccessMessage } from '@/lib/feedback';
import { formatFen } from '@/lib/money';
import { useSubmission } from '@/lib/submission';
import {
  type QuerySupplierAnswer,
  useOrderDetail,
  useQuerySupplier,
  useRouteCandidates,
  useSendToChannel,
} from '../api/orders';
import type { OrderItem } from '../api/types';
import { attemptAnswerText } from './order-attempts';
import { OrderStatusTag } from './order-status-tag';
import '@/locales/review-queue-texts';
import '@/locales/channels-texts';

/** Attempts that may still top the order up: while one exists, it must not be sent again. */
const OPEN_OUTCOMES = ['pending', 'unknown', 'success'];

const OUTCOME_COLORS: Record<string, string> = {
  pending: 'processing',
  unknown: 'warning',
  success: 'success',
  failed: 'error',
};

/** What the supplier answered, and where that left the order. */
function QueryResult({ answer }: { answer: QuerySupplierAnswer }) {
  const { t } = useTranslation();
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="query-result">
      <Alert
        type={answer.outcome === 'success' ? 'success' : answer.outcome === 'failed' ? 'warning' : 'info'}
        showIcon
        title={<span data-testid="query-answer">{answer.answer}</span>}
      />
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label={t('channels.attempts.outcome')}>
          <Tag color={OUTCOME_COLORS[answer.outcome] ?? 'default'} data-testid="query-outcome">
            {answer.outcome in OUTCOME_COLORS ? t(`channels.outcome.${answer.outcome}`) : answer.outcome}
          </Tag>
        </Descriptions.Item>
        {/* A failure's reason or an error is the supplier's own news; "Pending" is said above already. */}
        {answer.outcome === 'failed' || answer.outcome === 'unknown' ? (
          <Descriptions.Item label={t('channels.attempts.answer')}>
            {attemptAnswerText(answer.detail, t)}
          </Descriptions.Item>
        ) : null}
        <Descriptions.Item label={t('common.column.status')}>
          <OrderStatusTag status={answer.order.status} />
        </Descriptions.Item>
      </Descriptions>
    </Space>
  );
}

/** Where an order in review stands for sending: its open attempts, or the channels that can take it. */
function useSendOptions(order: OrderItem, open: boolean) {
  const detail = useOrderDetail(open ? order.id : null);
  const routes = useRouteCandidates(open ? order.product_key : null);
  const attempts = detail.data?.attempts ?? [];
  const failed = new Set(attempts.filter((attempt) => attempt.outcome === 'failed').map((a) => a.channel_code));
  return {
    loading: detail.isLoading || routes.isLoading,
    attempts: attempts.length,
    openAttempt: attempts.some((attempt) => OPEN_OUTCOMES.includes(attempt.outcome)),
    candidates: (routes.data ?? []).filter((route) => route.excluded === null && !failed.has(route.code)),
  };
}

/** The send dialog's body: the order's open attempt (then nothing can be sent) or the channels to choose from. */
function SendChoice({
  order,
  options,
  channel,
  onChannel,
}: {
  order: OrderItem;
  options: ReturnType<typeof useSendOptions>;
  channel: number | 'auto';
  onChannel: (channel: number | 'auto') => void;
}) {
  const { t } = useTranslation();
  if (options.loading) return <Skeleton active />;
  if (options.openAttempt) {
    return <Alert type="error" showIcon data-testid="send-open-attempt" title={t('reviewQueue.send.openAttempt')} />;
  }
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      <Typography.Text>
        {options.attempts === 0
          ? t('reviewQueue.send.neverSent', { orderNo: order.order_no })
          : t('reviewQueue.send.allFailed', { orderNo: order.order_no, count: options.attempts })}
      </Typography.Text>
      {options.candidates.length === 0 ? (
        <Alert type="warning" showIcon data-testid="send-no-channel" title={t('reviewQueue.send.noChannel')} />
      ) : (
        <Radio.Group
          value={channel}
          onChange={(event) => onChannel(event.target.value as number | 'auto')}
          data-testid="send-channels"
        >
          <Space orientation="vertical">
            <Radio value="auto" data-testid="send-channel-auto">
              {t('reviewQueue.send.auto')}
            </Radio>
            {options.candidates.map((route) => (
              <Radio key={route.channel_id} value={route.channel_id} data-testid={`send-channel-${route.code}`}>
                {route.name} <Typography.Text type="secondary">({route.code})</Typography.Text>{' '}
                {t('reviewQueue.send.cost', { cost: formatFen(route.cost_fen), priority: route.priority })}
              </Radio>
            ))}
          </Space>
        </Radio.Group>
      )}
    </Space>
  );
}

/**
 * Administrators, an order in manual review: ask its supplier now (查询上游), or hand it to
 * a channel (发送到渠道) when no channel may still top it up. The server refuses a send
 * while an attempt is open; the dialog says so before anyone tries.
 */
export function ChannelActions({ order, compact = false }: { order: OrderItem; compact?: boolean }) {
  const { t } = useTranslation();
  const query = useQuerySupplier();
  const send = useSendToChannel();
  const querying = useSubmission();
  const sending = useSubmission();
  const [answer, setAnswer] = useState<QuerySupplierAnswer | null>(null);
  const [sendOpen, setSendOpen] = useState(false);
  const [channel, setChannel] = useState<number | 'auto'>('auto');
  const options = useSendOptions(order, sendOpen);
  const sendable = !options.loading && !options.openAttempt && options.candidates.length > 0;
  if (order.status !== 4 || order.kind === 'behalf') return null;
  const size = compact ? 'small' : 'middle';

  const ask = () => {
    const request = { order_id: order.id };
    querying
      .run(request, (idempotencyKey) => query.mutateAsync({ ...request, idempotencyKey }))
      ?.then(setAnswer, () => undefined);
  };
  const confirmSend = () => {
    const request = { order_id: order.id, ...(channel === 'auto' ? {} : { channel_id: channel }) };
    sending
      .run(request, (idempotencyKey) => send.mutateAsync({ ...request, idempotencyKey }))
      ?.then(
        () => {
          showSuccessMessage(t('reviewQueue.send.done', { orderNo: order.order_no }));
          setSendOpen(false);
        },
        () => undefined,
      );
  };

  return (
    <>
      <Space size={compact ? 4 : 8}>
        <Button size={size} loading={querying.pending} onClick={ask} data-testid="review-query">
          {t('reviewQueue.query.action')}
        </Button>
        <Button
          size={size}
          onClick={() => {
            sending.forget();
            setChannel('auto');
            setSendOpen(true);
          }}
          data-testid="review-send"
        >
          {t('reviewQueue.send.action')}
        </Button>
      </Space>
      <Modal
        open={answer !== null}
        title={t('reviewQueue.query.title', { orderNo: order.order_no })}
        onCancel={() => {
          // Asking again later is a new question, not a repeat of this one.
          querying.forget();
          setAnswer(null);
        }}
        footer={null}
        destroyOnHidden
      >
        {answer ? <QueryResult answer={answer} /> : null}
      </Modal>
      <Modal
        open={sendOpen}
        title={t('reviewQueue.send.title', { orderNo: order.order_no })}
        onCancel={() => setSendOpen(false)}
        onOk={confirmSend}
        okText={t('reviewQueue.send.confirm')}
        confirmLoading={sending.pending}
        destroyOnHidden
        okButtonProps={{ disabled: !sendable, ...({ 'data-testid': 'send-confirm' } as Record<string, string>) }}
      >
        {sendOpen ? <SendChoice order={order} options={options} channel={channel} onChannel={setChannel} /> : null}
      </Modal>
    </>
  );
}
