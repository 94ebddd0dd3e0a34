import { Alert, Button, Descriptions, Drawer, Empty, Skeleton, Space, Table, Tag, Timeline, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Permission } from '@/components/permission/permission';
import { usePermission } from '@/components/permission/use-permission';
import { formatFen, formatSignedFen } from '@/lib/money';
import {
  carrierKey,
  durationUnits,
  failureReasonText,
  formatDuration,
  regionText,
  REVERSED_STATUS,
  STATUS_COLORS,
  statusKey,
} from '@/lib/order-labels';
import { formatTime } from '@/lib/platform-time';
import { useUserStore } from '@/stores/user-store';
import { type CardSecret, type TimelineEntry, useOrderDetail, useRevealCard } from '../api/orders';
import type { AccountRecord, OrderItem } from '../api/types';
import { OrderAttemptsSection } from './order-attempts';
import { OrderNotificationsSection } from './order-notifications';
import { OrderStatusTag } from './order-status-tag';
import { ChannelActions } from './channel-actions';
import { ResolveActions } from './resolve-actions';
import { ReverseAction } from './reverse-action';

/**
 * The server writes fixed English notes on the timeline (and free text: a failure reason,
 * an administrator's remark). Known notes are shown in the console's language; any other
 * text is shown as written.
 */
const TIMELINE_NOTE_KEYS: Record<string, string> = {
  placed: 'placed',
  submitted: 'submitted',
  success: 'success',
  'success without serial number': 'successWithoutSerial',
  failure: 'failure',
  'deadline passed without an answer from the channel': 'deadline',
  pending: 'pending',
  processing: 'processing',
  manual_review: 'manualReview',
  'reversed by the supplier': 'reversedBySupplier',
};

/** Resolutions by hand: the note names the administrator. */
const RESOLUTION_NOTE_KEYS: Record<string, string> = {
  'marked success by an administrator': 'markedSuccess',
  'marked failed by an administrator': 'markedFailure',
  'sent to a channel by an administrator': 'sentByAdmin',
  'failed at the supplier when an administrator asked; routed on': 'failedOnQuery',
  'reversed by an administrator': 'markedReversed',
};

export function timelineNote(
  note: string,
  t: (key: string, options?: Record<string, unknown>) => string,
  actorName?: string | null,
): string {
  const resolution = RESOLUTION_NOTE_KEYS[note];
  if (resolution) return t(`common.timelineNote.${resolution}`, { name: actorName ?? '-' });
  const key = TIMELINE_NOTE_KEYS[note];
  return key ? t(`common.timelineNote.${key}`) : note;
}

/** The secondary lines of a timeline entry: who (when a person acted) and why. */
function TimelineDetails({ entry }: { entry: TimelineEntry }) {
  const { t } = useTranslation();
  const resolution = entry.note in RESOLUTION_NOTE_KEYS;
  return (
    <>
      {entry.actor_name && !resolution ? (
        <Typography.Text type="secondary">{t('common.timeline.by', { name: entry.actor_name })}</Typography.Text>
      ) : null}
      {entry.detail ? (
        <Typography.Text data-testid="timeline-reason">
          {t('common.timeline.reason', { reason: entry.detail })}
        </Typography.Text>
      ) : null}
    </>
  );
}

export interface OrderDetailDrawerProps {
  orderId: number | null;
  onClose: () => void;
}

function CardReveal({ order }: { order: OrderItem }) {
  const { t } = useTranslation();
  const mid = useUserStore((state) => state.info.mid);
  const reveal = useRevealCard();
  const mayReveal = usePermission(['owner', 'operator']);
  const [secret, setSecret] = useState<CardSecret | null>(null);
  // Only the owning merchant's owners and operators may reveal; the server refuses anyone else anyway.
  if (!order.has_card || mid !== order.merchant_id || !mayReveal) return null;
  if (secret)
    return (
      <Descriptions size="small" column={1} bordered data-testid="card-secret">
        <Descriptions.Item label={t('common.card.no')}>
          <Typography.Text copyable>{secret.card_no}</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('common.card.secret')}>
          <Typography.Text copyable>{secret.card_secret}</Typography.Text>
        </Descriptions.Item>
      </Descriptions>
    );
  return (
    <Button
      type="primary"
      ghost
      loading={reveal.isPending}
      data-testid="card-reveal"
      onClick={() => reveal.mutate(order.id, { onSuccess: setSecret })}
    >
      {t('common.card.reveal')}
    </Button>
  );
}

export function AccountRecordTable({ records }: { records: AccountRecord[] }) {
  const { t } = useTranslation();
  return (
    <Table<AccountRecord>
      size="small"
      rowKey="id"
      pagination={false}
      dataSource={records}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('common.empty')} /> }}
      columns={[
        {
          title: t('common.record.changeType'),
          dataIndex: 'change_type',
          render: (v: string) => t(`common.changeType.${v}`),
        },
        {
          title: t('common.record.accountType'),
          dataIndex: 'account_type',
          render: (v: string) => t(`common.accountType.${v}`),
        },
        {
          title: t('common.record.amount'),
          dataIndex: 'amount_fen',
          align: 'right',
          render: (v: number) => formatSignedFen(v),
        },
        {
          title: t('common.record.balanceAfter'),
          dataIndex: 'balance_after_fen',
          align: 'right',
          render: (v: number) => formatFen(v),
        },
        { title: t('common.record.time'), dataIndex: 'created_at', render: formatTime },
      ]}
    />
  );
}

/** An order's fields, its timeline of status changes and its account-change records. */
export function OrderDetailDrawer({ orderId, onClose }: OrderDetailDrawerProps) {
  const { t, i18n } = useTranslation();
  const detail = useOrderDetail(orderId);
  const units = durationUnits(t);
  const order = detail.data?.order;

  return (
    <Drawer
      open={orderId !== null}
      onClose={onClose}
      size={720}
      title={t('common.detail.title')}
      destroyOnHidden
      data-testid="order-detail"
    >
      {detail.isLoading ? <Skeleton active /> : null}
      {detail.isError ? <Alert type="error" showIcon title={t('common.loadFailed')} /> : null}
      {order && detail.data ? (
        <Space orientation="vertical" size={20} style={{ width: '100%' }}>
          <Descriptions size="small" column={{ xs: 1, sm: 2 }} bordered>
            <Descriptions.Item label={t('common.column.merchantOrderId')}>{order.merchant_order_id}</Descriptions.Item>
            <Descriptions.Item label={t('common.column.orderNo')}>
              <span data-testid="detail-order-no">{order.order_no}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('common.column.systemOrderId')}>{order.system_order_id}</Descriptions.Item>
            <Descriptions.Item label={t('common.column.productName')}>{order.product_name}</Descriptions.Item>
            <Descriptions.Item label={t('common.column.productKey')}>{order.product_key}</Descriptions.Item>
            <Descriptions.Item label={t('common.column.carrier')}>{t(carrierKey(order.carrier))}</Descriptions.Item>
            <Descriptions.Item label={t('common.column.account')}>{order.account || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('common.column.region')}>
              {regionText(order, i18n.language === 'en-US')}
            </Descriptions.Item>
            <Descriptions.Item label={t('common.column.faceValue')}>
              {formatFen(order.face_value_fen)}
            </Descriptions.Item>
            <Descriptions.Item label={t('common.column.price')}>{formatFen(order.price_fen)}</Descriptions.Item>
            <Descriptions.Item label={t('common.column.status')}>
              <OrderStatusTag status={order.status} />
            </Descriptions.Item>
            <Descriptions.Item label={t('common.filter.buyback')}>
              {order.buyback ? t('common.buyback.buyback') : t('common.buyback.normal')}
            </Descriptions.Item>
            <Descriptions.Item label={t('common.column.createdAt')}>{formatTime(order.created_at)}</Descriptions.Item>
            {order.status === 0 || order.status === 1 ? (
              <Descriptions.Item label={t('common.column.deadlineAt')}>
                <span data-testid="order-detail-deadline">{formatTime(order.deadline_at)}</span>
              </Descriptions.Item>
            ) : null}
            <Descriptions.Item label={t('common.column.duration')}>
              {formatDuration(order.duration_ms, units)}
            </Descriptions.Item>
            <Descriptions.Item label={t('common.column.callbackAt')}>{formatTime(order.callback_at)}</Descriptions.Item>
            <Descriptions.Item label={t('common.column.serialNo')}>{order.serial_no || '-'}</Descriptions.Item>
            {order.reversed_at ? (
              <Descriptions.Item label={t('common.detail.reversedAt')}>
                <span data-testid="detail-reversed-at">{formatTime(order.reversed_at)}</span>
              </Descriptions.Item>
            ) : null}
            {order.reversal_reason ? (
              <Descriptions.Item label={t('common.detail.reversalReason')}>
                <span data-testid="detail-reversal-reason">{order.reversal_reason}</span>
              </Descriptions.Item>
            ) : null}
            {order.failure_reason ? (
              <Descriptions.Item label={t('common.detail.failureReason')}>
                <span data-testid="detail-failure-reason">{failureReasonText(order, t)}</span>
              </Descriptions.Item>
            ) : null}
          </Descriptions>

          <CardReveal order={order} />
          {order.kind === 'behalf' ? (
            <Permission roles={['admin']}>
              <ResolveActions order={order} />
            </Permission>
          ) : null}
          <Permission roles={['admin']}>
            <ReverseAction order={order} />
          </Permission>
          {order.status === 4 && order.kind !== 'behalf' ? (
            <Permission roles={['admin']}>
              <Space wrap data-testid="detail-review-actions">
                <ChannelActions order={order} />
                <ResolveActions order={order} />
              </Space>
            </Permission>
          ) : null}

          <div>
            <Typography.Title level={5}>{t('common.detail.timeline')}</Typography.Title>
            <Timeline
              data-testid="order-timeline"
              items={detail.data.timeline.map((entry) => ({
                color:
                  STATUS_COLORS[entry.status] === 'error' || entry.status === REVERSED_STATUS
                    ? 'red'
                    : STATUS_COLORS[entry.status] === 'success'
                      ? 'green'
                      : 'blue',
                content: (
                  <Space orientation="vertical" size={0}>
                    <span>
                      <Tag color={STATUS_COLORS[entry.status]}>{t(statusKey(entry.status))}</Tag>
                      {entry.note ? (
                        <Typography.Text type="secondary">
                          {timelineNote(entry.note, t, entry.actor_name)}
                        </Typography.Text>
                      ) : null}
                    </span>
                    <TimelineDetails entry={entry} />
                    <Typography.Text type="secondary">{formatTime(entry.at)}</Typography.Text>
                  </Space>
                ),
              }))}
            />
          </div>

          <OrderAttemptsSection attempts={detail.data.attempts} />

          <div>
            <Typography.Title level={5}>{t('common.detail.records')}</Typography.Title>
            <AccountRecordTable records={detail.data.account_records} />
          </div>

          <OrderNotificationsSection orderId={order.id} />
        </Space>
      ) : null}
    </Drawer>
  );
}
