import { Input, InputNumber, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { rangeToIso } from '@/components/list-page/date-presets';
import { DateRangeFilter, type FilterField } from '@/components/list-page/filter-card';
import { ListPage } from '@/components/list-page/list-page';
import type { ListColumn } from '@/components/list-page/list-table';
import { useMerchantColumn } from '@/components/list-page/merchant-column';
import type { FilterSchema, FilterValues } from '@/components/list-page/url-filters';
import { useListPage } from '@/components/list-page/use-list-page';
import { usePermission } from '@/components/permission/use-permission';
import { formatFen, formatSignedFen } from '@/lib/money';
import { formatTime } from '@/lib/platform-time';
import {
  ACCOUNT_TYPES,
  type AccountFilters,
  type AccountQuery,
  type AccountRecord,
  accountRecordsQueryOptions,
  CHANGE_TYPES,
  exportAccountRecords,
  toAccountQuery,
} from '../api/account-records';

const SCHEMA: FilterSchema = {
  texts: ['accountType', 'changeType', 'orderNo'],
  numbers: ['orderId', 'merchantId'],
  ranges: ['range'],
};

/** Address values → log filters; values the API would refuse are dropped. */
function toFilters(values: FilterValues): AccountFilters {
  const positive = (value: unknown) => (typeof value === 'number' && value > 0 ? value : undefined);
  const oneOf = (value: unknown, allowed: readonly string[]) =>
    typeof value === 'string' && allowed.includes(value) ? value : undefined;
  return {
    accountType: oneOf(values.accountType, ACCOUNT_TYPES),
    changeType: oneOf(values.changeType, CHANGE_TYPES),
    orderNo: typeof values.orderNo === 'string' ? values.orderNo : undefined,
    orderId: positive(values.orderId),
    merchantId: positive(values.merchantId),
    ...rangeToIso(Array.isArray(values.range) ? values.range : null),
  };
}

/** A right-aligned yuan column of one of a record's before/after figures. */
function moneyColumn(key: keyof AccountRecord & string, title: string): ListColumn<AccountRecord> {
  return { key, title, dataIndex: key, align: 'right', render: (v: number) => formatFen(v) };
}

/** Account-change records (/finance/account): the merchant's append-only money log. */
export default function AccountRecordsPage() {
  const { t } = useTranslation();
  const isAdmin = usePermission(['admin']);
  const state = useListPage({
    schema: SCHEMA,
    paging: 'cursor',
    toQuery: (values) => toAccountQuery(toFilters(values)),
    queryOptions: (query, page) => accountRecordsQueryOptions({ ...query, ...page }),
  });
  const merchantColumn = useMerchantColumn<AccountRecord>();
  const all = t('common.filter.all');

  const fields: FilterField[] = [
    {
      name: 'range',
      label: t('common.record.time'),
      tooltip: t('listPage.rangeTooltip'),
      wide: true,
      input: <DateRangeFilter data-testid="account-filter-range" />,
    },
    {
      name: 'changeType',
      label: t('common.record.changeType'),
      input: (
        <Select
          allowClear
          data-testid="account-filter-change-type"
          placeholder={all}
          options={CHANGE_TYPES.map((v) => ({ value: v, label: t(`common.changeType.${v}`) }))}
        />
      ),
    },
    {
      name: 'accountType',
      label: t('common.record.accountType'),
      input: (
        <Select
          allowClear
          data-testid="account-filter-account-type"
          placeholder={all}
          options={ACCOUNT_TYPES.map((v) => ({ value: v, label: t(`common.accountType.${v}`) }))}
        />
      ),
    },
    {
      name: 'orderNo',
      label: t('common.column.orderNo'),
      input: <Input allowClear maxLength={32} data-testid="account-filter-order-no" />,
    },
    {
      name: 'orderId',
      label: t('finance.orderId'),
      input: <InputNumber min={1} precision={0} style={{ width: '100%' }} />,
    },
    ...(isAdmin
      ? [
          {
            name: 'merchantId',
            label: t('common.filter.merchantId'),
            input: (
              <InputNumber min={1} precision={0} style={{ width: '100%' }} data-testid="account-filter-merchant-id" />
            ),
          },
        ]
      : []),
  ];

  const columns: ListColumn<AccountRecord>[] = [
    { key: 'created_at', title: t('common.record.time'), dataIndex: 'created_at', render: formatTime },
    ...(merchantColumn ? [merchantColumn] : []),
    {
      key: 'account_type',
      title: t('common.record.accountType'),
      dataIndex: 'account_type',
      render: (v: string) => t(`common.accountType.${v}`),
    },
    {
      key: 'change_type',
      title: t('common.record.changeType'),
      dataIndex: 'change_type',
      phone: true,
      phoneWidth: 90,
      render: (v: string) => t(`common.changeType.${v}`),
    },
    {
      key: 'amount_fen',
      title: t('common.record.amount'),
      dataIndex: 'amount_fen',
      align: 'right',
      phone: true,
      phoneWidth: 110,
      render: (v: number) => (
        <Typography.Text type={v < 0 ? 'danger' : 'success'}>{formatSignedFen(v)}</Typography.Text>
      ),
    },
    moneyColumn('balance_before_fen', t('common.record.balanceBefore')),
    moneyColumn('balance_after_fen', t('common.record.balanceAfter')),
    moneyColumn('credit_before_fen', t('common.record.creditBefore')),
    moneyColumn('credit_after_fen', t('common.record.creditAfter')),
    {
      key: 'order_no',
      title: t('common.record.order'),
      dataIndex: 'order_no',
      render: (v: string | null) => v || '-',
    },
    {
      key: 'actor_name',
      title: t('common.record.operator'),
      dataIndex: 'actor_name',
      width: 110,
      ellipsis: true,
      // Users are shown by their name; the platform's own actors by a translated label.
      render: (v: string, row: AccountRecord) =>
        row.actor_id === null && v ? t(`common.record.actor.${v}`, { defaultValue: v }) : v || '-',
    },
    {
      key: 'remark',
      title: t('common.record.remark'),
      dataIndex: 'remark',
      width: 220,
      ellipsis: true,
      render: (v: string) => v || '-',
    },
  ];

  return (
    <ListPage<AccountRecord, AccountQuery>
      state={state}
      testId="account-records-page"
      filters={{
        title: t('menu.finance.account'),
        fields,
        testId: 'account-filters',
        searchTestId: 'account-search',
        resetTestId: 'account-reset',
      }}
      total={{ testId: 'account-total' }}
      onExport={exportAccountRecords}
      listKey="account-records"
      columns={columns}
      rowKey="id"
      tableTestId="account-table"
      paginationTestId="account-pagination"
    />
  );
}
