import { Alert, Button, Form, Input, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPage } from '@/components/list-page/list-page';
import type { ListColumn } from '@/components/list-page/list-table';
import { useListPage } from '@/components/list-page/use-list-page';
import { showSuccessMessage } from '@/lib/feedback';
import { formatFen } from '@/lib/money';
import { formatTime } from '@/lib/platform-time';
import { useSubmission } from '@/lib/submission';
import type { OrderQuery } from '../api/order-query';
import { orderListQueryOptions, type ResolveManyResult, useResolveMany } from '../api/orders';
import type { OrderItem } from '../api/types';
import { OrderDetailDrawer } from './order-detail-drawer';
import { ChannelActions } from './channel-actions';
import { ResolveActions } from './resolve-actions';
import '@/locales/review-queue-texts';
import { useStepUp } from '@/components/step-up/use-step-up';

/** Every order in manual review, whatever its kind or merchant, oldest first. */
const QUEUE: OrderQuery = { kind: 'all', status: 4, sort: 'asc' };

/** How long an order has waited, in whole minutes (hours beyond two). */
function waited(createdAt: string, t: (key: string, options?: Record<string, unknown>) => string): string {
  const minutes = Math.max(0, Math.floor((Date.now() - new Date(createdAt).getTime()) / 60_000));
  return minutes >= 120
    ? t('reviewQueue.waitedHours', { count: Math.floor(minutes / 60) })
    : t('reviewQueue.waitedMinutes', { count: minutes });
}

/** Decide the selected orders at once: a serial number per order for success, one reason for failure. */
function ResolveManyDialog({
  result,
  orders,
  onClose,
}: {
  result: 'success' | 'failure' | null;
  orders: OrderItem[];
  onClose: (outcome?: ResolveManyResult) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason?: string; serials?: Record<string, string> }>();
  const run = useResolveMany();
  const stepUp = useStepUp();
  const submission = useSubmission();
  const success = result === 'success';
  return (
    <>
      <Modal
        open={result !== null}
        title={t(success ? 'reviewQueue.markSuccess' : 'reviewQueue.markFailure', { count: orders.length })}
        onCancel={() => {
          submission.forget();
          onClose();
        }}
        onOk={() => form.submit()}
        okButtonProps={{ danger: !success, 'data-testid': 'review-many-submit' } as { danger: boolean }}
        confirmLoading={submission.pending}
        destroyOnHidden
      >
        <Alert
          type={success ? 'info' : 'warning'}
          showIcon
          title={t(success ? 'reviewQueue.successHint' : 'reviewQueue.failureHint')}
          style={{ marginBottom: 16 }}
        />
        <Form
          form={form}
          layout="vertical"
          preserve={false}
          onFinish={({ reason, serials }) => {
            if (!result) return;
            const request = {
              result,
              reason: reason?.trim() || undefined,
              items: orders.map((order) => ({
                order_id: order.id,
                ...(success ? { serial_no: serials?.[String(order.id)]?.trim() } : {}),
              })),
            };
            // A retry of the same decision goes with the same key; one in flight drops another.
            submission
              .run(request, (idempotencyKey) => stepUp.guard(() => run.mutateAsync({ ...request, idempotencyKey })))
              ?.then(onClose, () => undefined);
          }}
        >
          {success
            ? orders.map((order) => (
                <Form.Item
                  key={order.id}
                  name={['serials', String(order.id)]}
                  label={t('reviewQueue.serialFor', { orderNo: order.order_no, account: order.account })}
                  rules={[{ required: true, whitespace: true, message: t('common.resolve.serialRequired') }]}
                >
                  <Input maxLength={200} data-testid={`review-serial-${order.id}`} />
                </Form.Item>
              ))
            : null}
          <Form.Item
            name="reason"
            label={t('reviewQueue.reason')}
            rules={success ? [] : [{ required: true, whitespace: true, message: t('common.resolve.reasonRequired') }]}
          >
            <Input maxLength={200} data-testid="review-reason" />
          </Form.Item>
        </Form>
      </Modal>
      {stepUp.element}
    </>
  );
}

/** Manual review queue (/order/review, administrators): orders waiting for a person, oldest first. */
export default function ReviewQueuePage() {
  const { t } = useTranslation();
  const state = useListPage({
    paging: 'numbers',
    toQuery: () => QUEUE,
    queryOptions: (query, page) => orderListQueryOptions({ ...query, ...page }),
  });
  const [selected, setSelected] = useState<OrderItem[]>([]);
  const [deciding, setDeciding] = useState<'success' | 'failure' | null>(null);
  const [detailOf, setDetailOf] = useState<number | null>(null);
  const [refused, setRefused] = useState<ResolveManyResult['refused']>([]);

  const columns: ListColumn<OrderItem>[] = [
    { key: 'order_no', title: t('common.column.orderNo'), dataIndex: 'order_no', phone: true },
    { key: 'merchant_id', title: t('common.filter.merchantId'), dataIndex: 'merchant_id' },
    { key: 'account', title: t('common.column.account'), dataIndex: 'account', phone: true },
    { key: 'product_name', title: t('common.column.productName'), dataIndex: 'product_name' },
    {
      key: 'price_fen',
      title: t('common.column.price'),
      dataIndex: 'price_fen',
      align: 'right',
      render: (value: number) => formatFen(value),
    },
    {
      key: 'created_at',
      title: t('common.column.createdAt'),
      dataIndex: 'created_at',
      render: (value: string) => formatTime(value),
    },
    {
      key: 'waited',
      title: t('reviewQueue.waited'),
      dataIndex: 'created_at',
      render: (value: string) => <span data-testid="review-waited">{waited(value, t)}</span>,
    },
    {
      key: 'actions',
      title: t('common.column.actions'),
      fixed: 'right',
      phone: true,
      render: (_: unknown, order) => (
        <Space size={4} wrap>
          <Button size="small" onClick={() => setDetailOf(order.id)} data-testid="review-timeline">
            {t('reviewQueue.timeline')}
          </Button>
          <ResolveActions order={order} compact />
          <ChannelActions order={order} compact />
        </Space>
      ),
    },
  ];

  return (
    <ListPage<OrderItem, OrderQuery>
      state={state}
      testId="review-queue-page"
      top={
        refused.length > 0 ? (
          <Alert
            type="warning"
            showIcon
            closable={{ onClose: () => setRefused([]) }}
            data-testid="review-refused"
            title={t('reviewQueue.refused', { count: refused.length })}
            description={
              <ul style={{ margin: 0, paddingInlineStart: 20 }}>
                {refused.map((item) => (
                  <li key={item.order_id}>
                    <Typography.Text code>{item.order_id}</Typography.Text> {item.msg}
                  </li>
                ))}
              </ul>
            }
          />
        ) : null
      }
      total={{
        testId: 'review-total',
        textKey: 'reviewQueue.title',
        strong: true,
        extra: (
          <>
            <Button
              type="primary"
              size="small"
              disabled={selected.length === 0}
              onClick={() => setDeciding('success')}
              data-testid="review-many-success"
            >
              {t('reviewQueue.markSuccess', { count: selected.length })}
            </Button>
            <Button
              danger
              size="small"
              disabled={selected.length === 0}
              onClick={() => setDeciding('failure')}
              data-testid="review-many-failure"
            >
              {t('reviewQueue.markFailure', { count: selected.length })}
            </Button>
          </>
        ),
      }}
      listKey="review-queue"
      columns={columns}
      rowKey="id"
      tableTestId="review-table"
      paginationTestId="review-pagination"
      rowSelection={{
        selectedRowKeys: selected.map((order) => order.id),
        onChange: (_keys, rows) => setSelected(rows),
      }}
    >
      <ResolveManyDialog
        result={deciding}
        orders={selected}
        onClose={(outcome) => {
          setDeciding(null);
          if (!outcome) return;
          setSelected([]);
          setRefused(outcome.refused);
          if (outcome.resolved.length > 0) {
            showSuccessMessage(t('reviewQueue.resolved', { count: outcome.resolved.length }));
          }
        }}
      />
      <OrderDetailDrawer orderId={detailOf} onClose={() => setDetailOf(null)} />
    </ListPage>
  );
}
