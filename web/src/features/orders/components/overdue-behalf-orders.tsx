import { Card, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { durationUnits, formatDuration } from '@/lib/order-labels';
import { formatTime } from '@/lib/platform-time';
import { useOrderList } from '../api/orders';
import type { OrderItem } from '../api/types';
import { ResolveActions } from './resolve-actions';

/** An on-behalf order waiting for a person longer than this is overdue. */
export const OVERDUE_AFTER_MS = 24 * 60 * 60 * 1000;

/** Whether an on-behalf order still waits for a person and has waited too long. */
export function isOverdue(order: Pick<OrderItem, 'kind' | 'status' | 'created_at'>, now: number): boolean {
  return (
    order.kind === 'behalf' &&
    (order.status === 0 || order.status === 4) &&
    now - Date.parse(order.created_at) > OVERDUE_AFTER_MS
  );
}

/**
 * Administrators, on the on-behalf list: the pending orders that have waited longer than a
 * day, oldest first, above the list, so the forgotten ones are handled before new ones.
 * Hidden when there are none.
 */
export function OverdueBehalfOrders({ onOpen }: { onOpen: (id: number) => void }) {
  const { t } = useTranslation();
  // The cut-off is fixed when the page opens: the query (and its cache key) stays stable.
  const [now] = useState(() => Date.now());
  const overdue = useOrderList({
    kind: 'behalf',
    status: 0,
    end_time: new Date(now - OVERDUE_AFTER_MS).toISOString(),
    sort: 'asc',
    page: 1,
    page_size: 10,
  });
  const data = overdue.data;
  if (!data || data.total === 0) return null;
  const units = durationUnits(t);
  return (
    <div data-testid="overdue-behalf">
      <Card title={<span data-testid="overdue-title">{t('common.overdue.title', { count: data.total })}</span>}>
        <Table<OrderItem>
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={data.list}
          scroll={{ x: 'max-content' }}
          columns={[
            {
              title: t('common.column.orderNo'),
              dataIndex: 'order_no',
              render: (value: string, order) => (
                <Typography.Link onClick={() => onOpen(order.id)}>{value}</Typography.Link>
              ),
            },
            { title: t('common.filter.merchantId'), dataIndex: 'merchant_id' },
            { title: t('common.column.account'), dataIndex: 'account' },
            { title: t('common.column.createdAt'), dataIndex: 'created_at', render: formatTime },
            {
              title: t('common.overdue.waited'),
              key: 'waited',
              render: (_: unknown, order) => (
                <Typography.Text type="danger" data-testid="overdue-waited">
                  {formatDuration(now - Date.parse(order.created_at), units)}
                </Typography.Text>
              ),
            },
            {
              title: t('common.column.actions'),
              key: 'actions',
              render: (_: unknown, order) => <ResolveActions order={order} compact />,
            },
          ]}
        />
      </Card>
    </div>
  );
}
