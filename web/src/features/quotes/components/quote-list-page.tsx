import { Button, Input, Select, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FilterField } from '@/components/list-page/filter-card';
import { ListPage } from '@/components/list-page/list-page';
import type { ListColumn } from '@/components/list-page/list-table';
import type { FilterSchema, FilterValues } from '@/components/list-page/url-filters';
import { useListPage } from '@/components/list-page/use-list-page';
import { MerchantSelect } from '@/components/merchant-select/merchant-select';
import { usePermission } from '@/components/permission/use-permission';
import { formatFen } from '@/lib/money';
import { carrierKey } from '@/lib/order-labels';
import { formatTime } from '@/lib/platform-time';
import {
  exportQuotes,
  type QuoteFilters,
  type QuoteItem,
  type QuoteQuery,
  quoteListQueryOptions,
  toQuoteQuery,
} from '../api/quotes';
import { QuoteEditor } from './quote-editor';

const FACE_VALUES_FEN = [1000, 2000, 3000, 5000, 10000, 20000, 30000, 50000];
const SCHEMA: FilterSchema = {
  texts: ['carrier', 'productKind', 'productKey'],
  numbers: ['faceValueFen', 'status', 'merchantId'],
};

/** Address values → quote filters; values the API would refuse are dropped. */
function toFilters(values: FilterValues): QuoteFilters {
  const pick = <T,>(value: unknown, allowed: readonly T[]) => (allowed.includes(value as T) ? (value as T) : undefined);
  return {
    carrier: pick(values.carrier, ['mobile', 'unicom', 'telecom']),
    faceValueFen: typeof values.faceValueFen === 'number' ? values.faceValueFen : undefined,
    productKind: pick(values.productKind, ['direct', 'card'] as const),
    status: pick(values.status, [0, 1]),
    productKey: typeof values.productKey === 'string' ? values.productKey : undefined,
    merchantId:
      Number.isSafeInteger(values.merchantId) && (values.merchantId as number) > 0
        ? (values.merchantId as number)
        : undefined,
  };
}

/** Quote list (/qoute/list): the merchant's price list with filters and export. */
export default function QuoteListPage() {
  const { t } = useTranslation();
  const isAdmin = usePermission(['admin']);
  const state = useListPage({
    schema: SCHEMA,
    paging: 'numbers',
    toQuery: (values) => toQuoteQuery(toFilters(values)),
    queryOptions: (query, page) => quoteListQueryOptions({ ...query, ...page }),
  });
  const all = t('common.filter.all');
  const [editing, setEditing] = useState<QuoteItem | null>(null);

  const fields: FilterField[] = [
    {
      name: 'carrier',
      label: t('common.column.carrier'),
      input: (
        <Select
          allowClear
          data-testid="quote-filter-carrier"
          placeholder={all}
          options={['mobile', 'unicom', 'telecom'].map((c) => ({ value: c, label: t(carrierKey(c)) }))}
        />
      ),
    },
    {
      name: 'faceValueFen',
      label: t('common.column.faceValue'),
      input: (
        <Select
          allowClear
          placeholder={all}
          options={FACE_VALUES_FEN.map((fen) => ({ value: fen, label: formatFen(fen) }))}
        />
      ),
    },
    {
      name: 'productKind',
      label: t('quotes.productKind'),
      input: (
        <Select
          allowClear
          placeholder={all}
          options={[
            { value: 'direct', label: t('quotes.kind.direct') },
            { value: 'card', label: t('quotes.kind.card') },
          ]}
        />
      ),
    },
    {
      name: 'status',
      label: t('quotes.status'),
      input: (
        <Select
          allowClear
          placeholder={all}
          options={[
            { value: 1, label: t('quotes.status.1') },
            { value: 0, label: t('quotes.status.0') },
          ]}
        />
      ),
    },
    {
      name: 'productKey',
      label: t('common.column.productKey'),
      input: <Input allowClear maxLength={64} data-testid="quote-filter-product-key" />,
    },
    ...(isAdmin
      ? [
          {
            name: 'merchantId',
            label: t('listPage.merchant'),
            input: <MerchantSelect testId="quote-filter-merchant" ariaLabel={t('listPage.merchant')} />,
          },
        ]
      : []),
  ];

  // Administrators see every merchant's rows: each names its merchant, and opens its editor.
  const merchantColumn: ListColumn<QuoteItem> = {
    key: 'merchant',
    title: t('listPage.merchant'),
    dataIndex: 'merchant_id',
    width: 160,
    ellipsis: true,
    phone: true,
    phoneWidth: 110,
    // The mid first: a long name is cut, the number that tells merchants apart stays.
    render: (_: number, quote: QuoteItem) => `${quote.merchant_id} · ${quote.merchant_name}`,
  };
  const actionColumn: ListColumn<QuoteItem> = {
    key: 'actions',
    title: t('quotes.actions'),
    fixed: 'right',
    width: 80,
    render: (_: unknown, quote: QuoteItem) => (
      <Button
        type="link"
        size="small"
        data-testid="quote-edit"
        aria-label={t('quotes.edit.aria', { key: quote.product_key, mid: quote.merchant_id })}
        onClick={(event) => {
          event.stopPropagation();
          setEditing(quote);
        }}
      >
        {t('quotes.edit')}
      </Button>
    ),
  };
  const columns: ListColumn<QuoteItem>[] = [
    ...(isAdmin ? [merchantColumn] : []),
    { key: 'business_name', title: t('quotes.businessName'), dataIndex: 'business_name', width: 150, ellipsis: true },
    {
      key: 'product_name',
      title: t('common.column.productName'),
      dataIndex: 'product_name',
      width: 180,
      ellipsis: true,
      phone: true,
      phoneWidth: 150,
    },
    { key: 'product_key', title: t('common.column.productKey'), dataIndex: 'product_key' },
    {
      key: 'carrier',
      title: t('common.column.carrier'),
      dataIndex: 'carrier',
      render: (v: string) => t(carrierKey(v)),
    },
    {
      key: 'price_fen',
      title: t('common.column.price'),
      dataIndex: 'price_fen',
      align: 'right',
      phone: true,
      phoneWidth: 90,
      render: (v: number) => formatFen(v),
    },
    {
      key: 'face_value_fen',
      title: t('common.column.faceValue'),
      dataIndex: 'face_value_fen',
      align: 'right',
      render: (v: number) => formatFen(v),
    },
    {
      key: 'status',
      title: t('quotes.status'),
      dataIndex: 'status',
      phone: true,
      phoneWidth: 80,
      render: (v: number) => <Tag color={v === 1 ? 'success' : 'default'}>{t(`quotes.status.${v === 1 ? 1 : 0}`)}</Tag>,
    },
    { key: 'created_at', title: t('quotes.createdAt'), dataIndex: 'created_at', render: formatTime },
    ...(isAdmin ? [actionColumn] : []),
  ];

  return (
    <ListPage<QuoteItem, QuoteQuery>
      state={state}
      testId="quote-list-page"
      filters={{
        title: t('menu.qoute.list'),
        fields,
        testId: 'quote-filters',
        searchTestId: 'quote-search',
        resetTestId: 'quote-reset',
      }}
      total={{ testId: 'quote-total' }}
      onExport={exportQuotes}
      listKey="quotes"
      columns={columns}
      rowKey="id"
      tableTestId="quote-table"
      paginationTestId="quote-pagination"
      onRow={isAdmin ? (quote) => ({ onClick: () => setEditing(quote), style: { cursor: 'pointer' } }) : undefined}
    >
      {isAdmin ? <QuoteEditor quote={editing} onClose={() => setEditing(null)} /> : null}
    </ListPage>
  );
}
