import { Button, Card, Empty, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatFen } from '@/lib/money';
import { failureReasonText, STATUS_COLORS, statusKey } from '@/lib/order-labels';
import { formatTime } from '@/lib/platform-time';
import type { AddedOrder } from '../api/add-order';

export interface PlacedRow {
  id: number;
  data: AddedOrder | undefined;
  isLoading: boolean | undefined;
}

/** The orders placed on the add-order page, each refreshed until final. */
export function PlacedOrdersCard({ rows, onClear }: { rows: PlacedRow[]; onClear: () => void }) {
  const { t } = useTranslation();
  return (
    <Card
      title={t('addOrder.placedTitle')}
      extra={
        rows.length ? (
          <Button size="small" onClick={onClear}>
            {t('addOrder.clear')}
          </Button>
        ) : null
      }
    >
      <Table
        rowKey="id"
        size="small"
        pagination={false}
        data-testid="added-orders"
        dataSource={rows}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={t('addOrder.placedEmpty')} /> }}
        columns={[
          {
            title: t('common.column.orderNo'),
            key: 'no',
            render: (_: unknown, row) => row.data?.order_no ?? row.id,
          },
          {
            title: t('common.column.merchantOrderId'),
            key: 'mid',
            render: (_: unknown, row) => row.data?.merchant_order_id ?? '-',
          },
          {
            title: t('common.column.productName'),
            key: 'product',
            render: (_: unknown, row) => row.data?.product_name ?? '-',
          },
          {
            title: t('common.column.account'),
            key: 'account',
            render: (_: unknown, row) => row.data?.account || '-',
          },
          {
            title: t('common.column.price'),
            key: 'price',
            align: 'right',
            render: (_: unknown, row) => (row.data ? formatFen(row.data.price_fen) : '-'),
          },
          {
            title: t('common.column.status'),
            key: 'status',
            render: (_: unknown, row) =>
              row.data ? (
                <Tag
                  color={STATUS_COLORS[row.data.status]}
                  data-testid="added-order-status"
                  data-status={row.data.status}
                >
                  {t(statusKey(row.data.status))}
                </Tag>
              ) : (
                '-'
              ),
          },
          {
            title: t('common.column.serialNo'),
            key: 'serial',
            render: (_: unknown, row) => row.data?.serial_no || '-',
          },
          {
            title: t('common.column.failureReason'),
            key: 'failure',
            render: (_: unknown, row) => (
              <span data-testid="added-order-failure">{(row.data && failureReasonText(row.data, t)) || '-'}</span>
            ),
          },
          {
            title: t('common.column.createdAt'),
            key: 'time',
            render: (_: unknown, row) => formatTime(row.data?.created_at),
          },
        ]}
      />
    </Card>
  );
}
