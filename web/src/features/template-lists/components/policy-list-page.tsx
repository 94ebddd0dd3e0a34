import { Alert, DatePicker, Input, Select, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { FilterField } from '@/components/list-page/filter-card';
import { ListPage } from '@/components/list-page/list-page';
import type { ListColumn } from '@/components/list-page/list-table';
import type { FilterSchema, FilterValues } from '@/components/list-page/url-filters';
import { useListPage } from '@/components/list-page/use-list-page';
import {
  CONTENT_TYPES,
  DEFAULT_PAGE_SIZE,
  FILTER_TYPES,
  POLICY_STATUSES,
  type PolicyQuery,
  type PolicyRow,
  policiesQueryOptions,
} from '../api/policies';

const SCHEMA: FilterSchema = {
  texts: ['number', 'name', 'contentType', 'filterType', 'status'],
  ranges: ['createdTime'],
};

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
const pick = (value: unknown, allowed: readonly string[]) =>
  allowed.includes(value as string) ? (value as string) : undefined;

/** Address values → the policy call's filters; values the server would refuse are dropped. */
export function toPolicyFilters(values: FilterValues): Omit<PolicyQuery, 'current' | 'pageSize'> {
  const range = Array.isArray(values.createdTime) ? (values.createdTime as [Dayjs | null, Dayjs | null]) : [null, null];
  return {
    number: text(values.number),
    name: text(values.name),
    contentType: pick(values.contentType, CONTENT_TYPES),
    filterType: pick(values.filterType, FILTER_TYPES),
    status: pick(values.status, POLICY_STATUSES),
    createdTimeStart: range[0]?.format('YYYY-MM-DD'),
    createdTimeEnd: range[1]?.format('YYYY-MM-DD'),
  };
}

/** Policy list: 55 generated rows, page 1 of 10 by default, every filter. */
export default function PolicyListPage() {
  const { t } = useTranslation();
  const state = useListPage({
    schema: SCHEMA,
    paging: 'numbers',
    defaultPageSize: DEFAULT_PAGE_SIZE,
    toQuery: toPolicyFilters,
    queryOptions: (filters, page) => policiesQueryOptions({ current: page.page, pageSize: page.page_size, ...filters }),
  });
  const all = t('template.policy.all');
  const options = (prefix: string, codes: readonly string[]) =>
    codes.map((code) => ({ value: code, label: t(`template.policy.${prefix}.${code}`) }));

  const fields: FilterField[] = [
    {
      name: 'number',
      label: t('template.policy.number'),
      input: (
        <Input allowClear placeholder={t('template.policy.numberPlaceholder')} data-testid="policy-filter-number" />
      ),
    },
    {
      name: 'name',
      label: t('template.policy.name'),
      input: <Input allowClear placeholder={t('template.policy.namePlaceholder')} data-testid="policy-filter-name" />,
    },
    {
      name: 'contentType',
      label: t('template.policy.contentType'),
      input: (
        <Select
          allowClear
          placeholder={all}
          options={options('contentType', CONTENT_TYPES)}
          data-testid="policy-filter-contentType"
        />
      ),
    },
    {
      name: 'filterType',
      label: t('template.policy.filterType'),
      input: (
        <Select
          allowClear
          placeholder={all}
          options={options('filterType', FILTER_TYPES)}
          data-testid="policy-filter-filterType"
        />
      ),
    },
    {
      name: 'status',
      label: t('template.policy.status'),
      input: (
        <Select
          allowClear
          placeholder={all}
          options={options('status', POLICY_STATUSES)}
          data-testid="policy-filter-status"
        />
      ),
    },
    {
      name: 'createdTime',
      label: t('template.policy.createdTime'),
      input: (
        <DatePicker.RangePicker
          allowEmpty={[true, true]}
          style={{ width: '100%' }}
          data-testid="policy-filter-createdTime"
        />
      ),
    },
  ];

  const columns: ListColumn<PolicyRow>[] = [
    { key: 'number', title: t('template.policy.number'), dataIndex: 'number', phone: true, phoneWidth: 110 },
    { key: 'name', title: t('template.policy.name'), dataIndex: 'name' },
    {
      key: 'contentType',
      title: t('template.policy.contentType'),
      dataIndex: 'contentType',
      render: (value: string) => t(`template.policy.contentType.${value}`),
    },
    {
      key: 'filterType',
      title: t('template.policy.filterType'),
      dataIndex: 'filterType',
      render: (value: string) => t(`template.policy.filterType.${value}`),
    },
    { key: 'count', title: t('template.policy.count'), dataIndex: 'count', align: 'right' },
    { key: 'createdTime', title: t('template.policy.createdTime'), dataIndex: 'createdTime' },
    {
      key: 'status',
      title: t('template.policy.status'),
      dataIndex: 'status',
      phone: true,
      phoneWidth: 90,
      render: (value: string) => (
        <Tag color={value === 'online' ? 'success' : 'default'}>{t(`template.policy.status.${value}`)}</Tag>
      ),
    },
  ];

  return (
    <ListPage<PolicyRow, Omit<PolicyQuery, 'current' | 'pageSize'>>
      state={state}
      testId="policy-list-page"
      top={<Alert type="info" showIcon title={t('template.demoNote')} />}
      filters={{
        title: t('template.policy.title'),
        fields,
        testId: 'policy-filters',
        searchTestId: 'policy-search',
        resetTestId: 'policy-reset',
      }}
      total={{ testId: 'policy-total', textKey: 'template.policy.total' }}
      listKey="template-policies"
      columns={columns}
      rowKey="id"
      tableTestId="policy-table"
      paginationTestId="policy-pagination"
    />
  );
}
