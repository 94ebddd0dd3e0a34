import { Alert, Button, Card, Empty, Pagination, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Permission } from '@/components/permission/permission';
import { formatFen } from '@/lib/money';
import { durationUnits, failureReasonText, formatDuration, type OrderKind } from '@/lib/order-labels';
import { formatTime } from '@/lib/platform-time';
import { useCursorPages } from '@/lib/cursor-pages';
import { type OrderFilters, type SortOrder, toOrderQuery } from '../api/order-query';
import { exportOrders, useOrderList } from '../api/orders';
import type { OrderItem } from '../api/types';
import { ExportButtons } from '@/components/export-buttons/export-buttons';
import { OrderDetailDrawer } from './order-detail-drawer';
import { OrderFilterForm } from './order-filter-form';
import { OrderStatusTag } from './order-status-tag';
import { isOverdue, OverdueBehalfOrders } from './overdue-behalf-orders';
import { ResolveActions } from './resolve-actions';
import './orders.css';

export interface OrderListViewProps {
  kind: OrderKind;
  titleKey: string;
  testId: string;
}

const DEFAULT_PAGE_SIZE = 20;

/**
 * One order list (ordinary, card-secret or on-behalf): §3 filters and columns, time sort,
 * keyset pagination with the exact total, the detail drawer and CSV / Excel export.
 */
export function OrderListView({ kind, titleKey, testId }: OrderListViewProps) {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<OrderFilters>({});
  const [sort, setSort] = useState<SortOrder>('desc');
  const [openId, setOpenId] = useState<number | null>(null);
  const pages = useCursorPages(DEFAULT_PAGE_SIZE);
  const { page, pageSize, position, restart, remember } = pages;

  const query = useMemo(() => toOrderQuery(kind, filters, sort), [kind, filters, sort]);
  const list = useOrderList({ ...query, ...position, page_size: pageSize });
  const data = list.data;
  useEffect(() => {
    if (data && !list.isPlaceholderData) remember(page, data.next_cursor);
  }, [data, list.isPlaceholderData, page, remember]);

  const units = durationUnits(t);
  const [now] = useState(() => Date.now());
  const columns: ColumnsType<OrderItem> = [
    { title: t('orderCommon.column.merchantOrderId'), dataIndex: 'merchant_order_id', width: 190 },
    {
      title: t('orderCommon.column.orderNo'),
      dataIndex: 'order_no',
      width: 220,
      render: (value: string, order) => (
        <Typography.Link onClick={() => setOpenId(order.id)} data-testid="order-no-link">
          {value}
        </Typography.Link>
      ),
    },
    { title: t('orderCommon.column.systemOrderId'), dataIndex: 'system_order_id', width: 200, ellipsis: true },
    { title: t('orderCommon.column.productName'), dataIndex: 'product_name', width: 180 },
    { title: t('orderCommon.column.account'), dataIndex: 'account', width: 130, render: (v: string) => v || '-' },
    {
      title: t('orderCommon.column.faceValue'),
      dataIndex: 'face_value_fen',
      align: 'right',
      width: 110,
      render: (v: number) => formatFen(v),
    },
    {
      title: t('orderCommon.column.status'),
      dataIndex: 'status',
      width: 100,
      render: (v: number, order) => (
        <Space size={2} wrap>
          <OrderStatusTag status={v} />
          {isOverdue(order, now) ? (
            <Tag color="red" data-testid="order-overdue">
              {t('orderCommon.overdue.tag')}
            </Tag>
          ) : null}
        </Space>
      ),
    },
    {
      title: t('orderCommon.column.createdAt'),
      dataIndex: 'created_at',
      key: 'created_at',
      width: 170,
      sorter: true,
      sortOrder: sort === 'asc' ? 'ascend' : 'descend',
      sortDirections: ['descend', 'ascend', 'descend'],
      render: formatTime,
    },
    {
      title: t('orderCommon.column.duration'),
      dataIndex: 'duration_ms',
      width: 110,
      render: (v: number | null) => formatDuration(v, units),
    },
    { title: t('orderCommon.column.callbackAt'), dataIndex: 'callback_at', width: 170, render: formatTime },
    { title: t('orderCommon.column.serialNo'), dataIndex: 'serial_no', width: 200, render: (v: string | null) => v || '-' },
    {
      title: t('orderCommon.column.failureReason'),
      key: 'failure_reason',
      width: 180,
      ellipsis: true,
      render: (_: unknown, order) => (
        <span data-testid="order-failure-reason">{failureReasonText(order, t) || '-'}</span>
      ),
    },
    {
      title: t('orderCommon.column.actions'),
      key: 'actions',
      fixed: 'right',
      width: kind === 'behalf' ? 200 : 90,
      render: (_: unknown, order) => (
        <Space size={4}>
          <Button size="small" type="link" onClick={() => setOpenId(order.id)} data-testid="order-detail-open">
            {t('orderCommon.detail.open')}
          </Button>
          {kind === 'behalf' ? (
            <Permission roles={['admin']}>
              <ResolveActions order={order} compact />
            </Permission>
          ) : null}
        </Space>
      ),
    },
  ];

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid={testId}>
      <Card title={t(titleKey)}>
        <OrderFilterForm
          onSearch={(next) => {
            setFilters(next);
            restart();
          }}
        />
      </Card>
      {kind === 'behalf' ? (
        <Permission roles={['admin']}>
          <OverdueBehalfOrders onOpen={setOpenId} />
        </Permission>
      ) : null}
      <Card
        title={
          <span data-testid="order-total">
            {data ? t(data.total_capped ? 'orderCommon.totalCapped' : 'orderCommon.total', { count: data.total }) : t(titleKey)}
          </span>
        }
        extra={<ExportButtons onExport={(format) => exportOrders(query, format)} />}
      >
        {list.isError && !data ? (
          <Alert
            type="error"
            showIcon
            title={t('orderCommon.loadFailed')}
            action={<Button onClick={() => void list.refetch()}>{t('orderCommon.retry')}</Button>}
            data-testid="order-list-error"
          />
        ) : (
          <>
            <Table<OrderItem>
              rowKey="id"
              size="middle"
              columns={columns}
              dataSource={data?.list ?? []}
              loading={list.isFetching}
              pagination={false}
              scroll={{ x: 'max-content' }}
              data-testid="order-table"
              locale={{ emptyText: <Empty description={t('orderCommon.empty')} /> }}
              onChange={(_pagination, _filters, sorter) => {
                const one = Array.isArray(sorter) ? sorter[0] : sorter;
                const next: SortOrder = one?.order === 'ascend' ? 'asc' : 'desc';
                if (next !== sort) {
                  setSort(next);
                  restart();
                }
              }}
            />
            <div className="orders__pagination">
              <Pagination
                current={page}
                pageSize={pageSize}
                total={data?.total ?? 0}
                showSizeChanger
                pageSizeOptions={[10, 20, 50, 100]}
                showTotal={(total) => t('orderCommon.total', { count: total })}
                onChange={pages.changePage}
                data-testid="order-pagination"
              />
            </div>
          </>
        )}
      </Card>
      <OrderDetailDrawer orderId={openId} onClose={() => setOpenId(null)} />
    </Space>
  );
}
