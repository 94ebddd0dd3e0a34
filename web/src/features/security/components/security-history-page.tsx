import { Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { MerchantSelect } from '@/components/merchant-select/merchant-select';
import { rangeToIso } from '@/components/list-page/date-presets';
import { DateRangeFilter, type FilterField } from '@/components/list-page/filter-card';
import { ListPage } from '@/components/list-page/list-page';
import type { ListColumn } from '@/components/list-page/list-table';
import type { FilterSchema, FilterValues } from '@/components/list-page/url-filters';
import { useListPage } from '@/components/list-page/use-list-page';
import { usePermission } from '@/components/permission/use-permission';
import { currentLocale } from '@/lib/i18n';
import { formatTime } from '@/lib/platform-time';
import '@/locales/security-texts';
import {
  type SecurityEvent,
  type SecurityFilters,
  type SecurityQuery,
  exportSecurityEvents,
  securityEventsQueryOptions,
  toSecurityQuery,
  useSecurityKinds,
} from '../api/security';
import { browserLabel } from './browser-label';

const SCHEMA: FilterSchema = { texts: ['kind', 'user', 'address'], numbers: ['merchantId'], ranges: ['range'] };

export function toFilters(values: FilterValues): SecurityFilters {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return {
    kind: text(values.kind),
    user: text(values.user),
    address: text(values.address),
    merchantId: typeof values.merchantId === 'number' ? values.merchantId : undefined,
    ...rangeToIso(Array.isArray(values.range) ? values.range : null),
  };
}

/**
 * The security history (/user/security): the merchant's sign-ins with address and browser,
 * failures and locks, two-factor, key and staff events, kept 180 days. Owners see their
 * merchant's; administrators every merchant's, or one's through the merchant filter.
 */
export default function SecurityHistoryPage() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language || currentLocale();
  const isAdmin = usePermission(['admin']);
  const state = useListPage({
    schema: SCHEMA,
    paging: 'cursor',
    toQuery: (values) => toSecurityQuery(toFilters(values)),
    // Names and details come in the request's language: another language is another list.
    queryOptions: (query, page) => securityEventsQueryOptions({ ...query, ...page }, locale),
  });
  const kinds = useSecurityKinds(locale);

  const fields: FilterField[] = [
    {
      name: 'range',
      label: t('security.time'),
      tooltip: t('listPage.rangeTooltip'),
      wide: true,
      input: <DateRangeFilter data-testid="security-filter-range" />,
    },
    {
      name: 'kind',
      label: t('security.kind'),
      input: (
        <Select
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          data-testid="security-filter-kind"
          placeholder={t('common.filter.all')}
          options={(kinds.data ?? []).map((item) => ({ value: item.kind, label: item.name }))}
        />
      ),
    },
    {
      name: 'user',
      label: t('security.user'),
      input: <Input allowClear maxLength={64} data-testid="security-filter-user" />,
    },
    {
      name: 'address',
      label: t('security.address'),
      input: <Input allowClear maxLength={64} data-testid="security-filter-address" />,
    },
    ...(isAdmin
      ? [
          {
            name: 'merchantId',
            label: t('listPage.merchant'),
            input: <MerchantSelect testId="security-filter-merchant" ariaLabel={t('listPage.merchant')} />,
          },
        ]
      : []),
  ];

  const merchantColumn: ListColumn<SecurityEvent> = {
    key: 'merchant_id',
    title: t('listPage.merchant'),
    dataIndex: 'merchant_id',
    width: 100,
    render: (v: number | null | undefined) => (v == null ? t('security.administrators') : String(v)),
  };
  const columns: ListColumn<SecurityEvent>[] = [
    { key: 'created_at', title: t('security.time'), dataIndex: 'created_at', render: formatTime },
    ...(isAdmin ? [merchantColumn] : []),
    {
      key: 'username',
      title: t('security.user'),
      dataIndex: 'username',
      width: 120,
      ellipsis: true,
      phone: true,
      phoneWidth: 90,
    },
    {
      key: 'kind',
      title: t('security.kind'),
      dataIndex: 'kind_name',
      phone: true,
      phoneWidth: 100,
      render: (v: string) => <span data-testid="security-kind">{v}</span>,
    },
    {
      key: 'detail',
      title: t('security.detail'),
      dataIndex: 'detail',
      width: 240,
      ellipsis: true,
      phone: true,
      phoneWidth: 140,
      render: (v: string) => v || '-',
    },
    {
      key: 'client_address',
      title: t('security.address'),
      dataIndex: 'client_address',
      render: (v: string) => v || '-',
    },
    {
      key: 'user_agent',
      title: t('security.browser'),
      dataIndex: 'user_agent',
      width: 200,
      ellipsis: true,
      render: (v: string) => (
        <span title={v} data-testid="security-browser">
          {browserLabel(v)}
        </span>
      ),
    },
  ];

  return (
    <ListPage<SecurityEvent, SecurityQuery>
      state={state}
      testId="security-history-page"
      filters={{
        title: t('menu.user.security'),
        fields,
        testId: 'security-filters',
        searchTestId: 'security-search',
        resetTestId: 'security-reset',
      }}
      total={{ testId: 'security-total' }}
      onExport={exportSecurityEvents}
      listKey="security-history"
      columns={columns}
      rowKey="id"
      tableTestId="security-table"
      paginationTestId="security-pagination"
    />
  );
}
