import { Button, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPage } from '@/components/list-page/list-page';
import type { ListColumn } from '@/components/list-page/list-table';
import { useMerchantColumn } from '@/components/list-page/merchant-column';
import { useListPage } from '@/components/list-page/use-list-page';
import { Permission } from '@/components/permission/permission';
import { usePermission } from '@/components/permission/use-permission';
import { formatFen } from '@/lib/money';
import { durationUnits, failureReasonText, formatDuration, type OrderKind, regionText } from '@/lib/order-labels';
import { formatTime } from '@/lib/platform-time';
import {
  ORDER_FILTER_SCHEMA,
  type OrderQuery,
  type SortOrder,
  toOrderQuery,
  valuesToOrderFilters,
} from '../api/order-query';
import { exportOrders, orderListQueryOptions } from '../api/orders';
import type { CardExportChoice } from '../api/card-export';
import type { OrderItem } from '../api/types';
import { CardExportDialog } from './card-export-dialog';
import { OrderDetailDrawer } from './order-detail-drawer';
import { useOrderFilterFields } from './order-filter-form';
import { OrderStatusTag } from './order-status-tag';
import { isOverdue, OverdueBehalfOrders } from './overdue-behalf-orders';
import { ResolveActions } from './resolve-actions';

export interface OrderListViewProps {
  kind: OrderKind;
  titleKey: string;
  testId: string;
}

const DEFAULT_PAGE_SIZE = 20;

/**
 * One order list (ordinary, card-secret or on-behalf): filters and columns, time sort,
 * keyset pagination with the exact total, the detail drawer and CSV / Excel export. The
 * filters live in the address, so the workplace's figures can open a filtered list.
 */
export function OrderListView({ kind, titleKey, testId }: OrderListViewProps) {
  const { t, i18n } = useTranslation();
  const [sort, setSort] = useState<SortOrder>('desc');
  const [openId, setOpenId] = useState<number | null>(null);
  const fields = useOrderFilterFields(kind);
  const merchantColumn = useMerchantColumn<OrderItem>();
  // Card secrets leave only for the owning merchant's users (the server says the same).
  const exportsCards = usePermission(['owner', 'operator']) && kind === 'card';
  // Exports are for administrators, owners, finance and operators (identity/permissions.rs).
  const exportsOrders = usePermission(['admin', 'owner', 'finance', 'operator']);
  const [chosen, setChosen] = useState<number[]>([]);
  const [exporting, setExporting] = useState<CardExportChoice | null>(null);

  const state = useListPage({
    schema: ORDER_FILTER_SCHEMA,
    paging: 'cursor',
    defaultPageSize: DEFAULT_PAGE_SIZE,
    toQuery: (values) => toOrderQuery(kind, valuesToOrderFilters(values), sort),
    queryOptions: (query, page) => orderListQueryOptions({ ...query, ...page }),
    // Ticked rows belong to the filters they were ticked under.
    onFiltersChange: () => setChosen([]),
  });
  const { query } = state;
  const data = state.list.data;
  const changeSort = (next: SortOrder) => {
    if (next === sort) return;
    setSort(next);
    state.restart();
  };

  const units = durationUnits(t);
  const [now] = useState(() => Date.now());
  // Shown by default, the spec's essentials and the failure reason fit a 1440 px screen with
  // the menu open (about 1,140 px of table): ids, product, account, face value, status,
  // failure reason, order time. Long text is cut and shown whole in a tooltip. System order
  // id, time taken, callback time and serial number are added from the column settings.
  // Administrators get the merchant column instead of the merchants' own order ids.
  const columns: ListColumn<OrderItem>[] = [
    {
      key: 'merchant_order_id',
      title: t('common.column.merchantOrderId'),
      dataIndex: 'merchant_order_id',
      width: 120,
      ellipsis: true,
      defaultHidden: merchantColumn !== null,
    },
    {
      key: 'order_no',
      title: t('common.column.orderNo'),
      dataIndex: 'order_no',
      // 24 digits fit whole at the default density; looser rows cut the end (full on hover).
      width: 236,
      ellipsis: true,
      phone: true,
      phoneWidth: 150,
      render: (value: string, order) => (
        <Typography.Link onClick={() => setOpenId(order.id)} data-testid="order-no-link" title={value}>
          {value}
        </Typography.Link>
      ),
    },
    {
      key: 'product_name',
      title: t('common.column.productName'),
      dataIndex: 'product_name',
      width: 120,
      ellipsis: true,
    },
    {
      key: 'account',
      title: t('common.column.account'),
      dataIndex: 'account',
      width: 120,
      render: (v: string) => v || '-',
    },
    {
      key: 'region',
      title: t('common.column.region'),
      width: 100,
      // Chosen in the column settings: shown by default it would push the list past a 1440 px
      // screen, where the failure reason of a failed order must stay in view.
      defaultHidden: true,
      render: (_: unknown, order: OrderItem) => regionText(order, i18n.language === 'en-US'),
    },
    {
      key: 'face_value_fen',
      title: t('common.column.faceValue'),
      dataIndex: 'face_value_fen',
      align: 'right',
      width: 76,
      render: (v: number) => formatFen(v),
    },
    {
      key: 'status',
      title: t('common.column.status'),
      dataIndex: 'status',
      width: 80,
      phone: true,
      phoneWidth: 84,
      render: (v: number, order) => (
        <Space size={2} wrap>
          <OrderStatusTag status={v} />
          {isOverdue(order, now) ? (
            <Tag color="red" data-testid="order-overdue">
              {t('common.overdue.tag')}
            </Tag>
          ) : null}
        </Space>
      ),
    },
    {
      key: 'failure_reason',
      title: t('common.column.failureReason'),
      width: 130,
      ellipsis: true,
      render: (_: unknown, order) => (
        <span data-testid="order-failure-reason">{failureReasonText(order, t) || '-'}</span>
      ),
    },
    {
      key: 'created_at',
      title: t('common.column.createdAt'),
      dataIndex: 'created_at',
      width: 168,
      sorter: true,
      sortOrder: sort === 'asc' ? 'ascend' : 'descend',
      sortDirections: ['descend', 'ascend', 'descend'],
      render: formatTime,
    },
    ...(merchantColumn ? [merchantColumn] : []),
    {
      key: 'system_order_id',
      title: t('common.column.systemOrderId'),
      dataIndex: 'system_order_id',
      width: 200,
      ellipsis: true,
      defaultHidden: true,
    },
    {
      key: 'duration_ms',
      title: t('common.column.duration'),
      dataIndex: 'duration_ms',
      width: 110,
      defaultHidden: true,
      render: (v: number | null) => formatDuration(v, units),
    },
    {
      key: 'callback_at',
      title: t('common.column.callbackAt'),
      dataIndex: 'callback_at',
      width: 170,
      defaultHidden: true,
      render: formatTime,
    },
    {
      key: 'serial_no',
      title: t('common.column.serialNo'),
      dataIndex: 'serial_no',
      width: 200,
      ellipsis: true,
      defaultHidden: true,
      render: (v: string | null) => v || '-',
    },
    {
      key: 'actions',
      title: t('common.column.actions'),
      fixed: 'right',
      // Narrow on purpose (an administrator's merchant column stays on a 1440 px screen); the
      // title is kept on one line, where 'Actions' would otherwise break inside the word.
      width: kind === 'behalf' ? 190 : 70,
      onHeaderCell: () => ({ style: { whiteSpace: 'nowrap' } }),
      phone: true,
      render: (_: unknown, order) => (
        <Space size={4}>
          <Button size="small" type="link" onClick={() => setOpenId(order.id)} data-testid="order-detail-open">
            {t('common.detail.open')}
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
    <ListPage<OrderItem, OrderQuery>
      state={state}
      testId={testId}
      filters={{
        title: t(titleKey),
        fields,
        testId: 'order-filters',
        searchTestId: 'filter-search',
        resetTestId: 'filter-reset',
      }}
      middle={
        kind === 'behalf' ? (
          <Permission roles={['admin']}>
            <OverdueBehalfOrders onOpen={setOpenId} />
          </Permission>
        ) : null
      }
      total={{
        testId: 'order-total',
        beforeLoad: t(titleKey),
        extra: exportsCards ? (
          <Button
            size="small"
            disabled={!data || (chosen.length === 0 && data.total === 0)}
            onClick={() => setExporting(chosen.length > 0 ? { orderIds: chosen } : { filter: query })}
            data-testid="card-export-open"
          >
            {chosen.length > 0 ? t('cardExport.openChosen', { count: chosen.length }) : t('cardExport.open')}
          </Button>
        ) : null,
      }}
      onExport={exportsOrders ? exportOrders : undefined}
      listKey={`orders-${kind}`}
      columns={columns}
      rowKey="id"
      rowSelection={
        exportsCards
          ? {
              selectedRowKeys: chosen,
              preserveSelectedRowKeys: true,
              onChange: (keys) => setChosen(keys.map(Number)),
            }
          : undefined
      }
      errorTestId="order-list-error"
      tableTestId="order-table"
      paginationTestId="order-pagination"
      onTableChange={(_pagination, _filters, sorter) => {
        const one = Array.isArray(sorter) ? sorter[0] : sorter;
        changeSort(one?.order === 'ascend' ? 'asc' : 'desc');
      }}
      sort={{ value: sort, onChange: (value) => changeSort(value === 'asc' ? 'asc' : 'desc') }}
    >
      <OrderDetailDrawer orderId={openId} onClose={() => setOpenId(null)} />
      {exportsCards ? (
        <CardExportDialog
          choice={exporting}
          count={exporting && 'orderIds' in exporting ? exporting.orderIds.length : (data?.total ?? 0)}
          onClose={() => setExporting(null)}
        />
      ) : null}
    </ListPage>
  );
}
