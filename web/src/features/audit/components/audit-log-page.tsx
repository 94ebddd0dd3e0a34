import { Form, Input, Select, Space, Typography } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { rangeToIso } from '@/components/list-page/date-presets';
import { DateRangeFilter, FilterCard, type FilterField } from '@/components/list-page/filter-card';
import { type ListColumn, ListTable } from '@/components/list-page/list-table';
import type { FilterSchema, FilterValues } from '@/components/list-page/url-filters';
import { useOnChange, useUrlFilters } from '@/components/list-page/use-url-filters';
import { useCursorPages } from '@/lib/cursor-pages';
import { currentLocale } from '@/lib/i18n';
import { formatTime } from '@/lib/platform-time';
import '@/locales/audit-texts';
import {
  type AuditEvent,
  type AuditFilters,
  exportAuditEvents,
  toAuditQuery,
  useAuditActions,
  useAuditEvents,
} from '../api/audit';

const SCHEMA: FilterSchema = { texts: ['actor', 'action', 'target'], ranges: ['range'] };

const TARGET_KINDS = ['user', 'merchant', 'order', 'channel'] as const;

function toFilters(values: FilterValues): AuditFilters {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return {
    actor: text(values.actor),
    action: text(values.action),
    target: text(values.target),
    ...rangeToIso(Array.isArray(values.range) ? values.range : null),
  };
}

/**
 * `merchant:10001` → "Merchant 10001", with the target's current name when the server
 * knows it ("Channel 2: Sandbox"); anything else as stored.
 */
export function targetLabel(
  target: string,
  t: (key: string, options?: Record<string, unknown>) => string,
  name = '',
): string {
  if (!target) return '-';
  if (target === 'server') return t('audit.target.server');
  const [kind, id] = target.split(':');
  if (!(TARGET_KINDS as readonly string[]).includes(kind) || !id) return target;
  const label = t(`audit.target.${kind}`, { id });
  return name ? t('audit.target.named', { label, name }) : label;
}

/** The audit log (/finance/audit, administrators): every security and money event. */
export default function AuditLogPage() {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm();
  const { values, apply, search } = useUrlFilters(SCHEMA);
  const pages = useCursorPages(20);
  const { page, pageSize, position, restart, remember } = pages;
  useOnChange(search, restart);
  const query = useMemo(() => toAuditQuery(toFilters(values)), [values]);
  const locale = i18n.language || currentLocale();
  // Details come in the request's language: another language is another list.
  const list = useAuditEvents({ ...query, ...position, page_size: pageSize }, locale);
  const actions = useAuditActions(locale);
  const data = list.data;
  useEffect(() => {
    if (data && !list.isPlaceholderData) remember(page, data.next_cursor);
  }, [data, list.isPlaceholderData, page, remember]);

  const fields: FilterField[] = [
    {
      name: 'range',
      label: t('audit.time'),
      tooltip: t('listPage.rangeTooltip'),
      wide: true,
      input: <DateRangeFilter data-testid="audit-filter-range" />,
    },
    {
      name: 'action',
      label: t('audit.action'),
      input: (
        <Select
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          data-testid="audit-filter-action"
          placeholder={t('common.filter.all')}
          options={(actions.data ?? []).map((item) => ({ value: item.action, label: item.name }))}
        />
      ),
    },
    {
      name: 'actor',
      label: t('audit.actor'),
      input: <Input allowClear maxLength={64} placeholder={t('audit.actorHint')} data-testid="audit-filter-actor" />,
    },
    {
      name: 'target',
      label: t('audit.target'),
      input: <Input allowClear maxLength={64} placeholder={t('audit.targetHint')} data-testid="audit-filter-target" />,
    },
  ];

  const columns: ListColumn<AuditEvent>[] = [
    { key: 'created_at', title: t('audit.time'), dataIndex: 'created_at', render: formatTime },
    {
      key: 'actor_name',
      title: t('audit.actor'),
      dataIndex: 'actor_name',
      width: 120,
      ellipsis: true,
      phone: true,
      phoneWidth: 90,
      render: (v: string) => v || <Typography.Text type="secondary">{t('audit.noActor')}</Typography.Text>,
    },
    {
      key: 'action',
      title: t('audit.action'),
      dataIndex: 'action_name',
      phone: true,
      phoneWidth: 100,
      render: (v: string, row: AuditEvent) => <span title={row.action}>{v}</span>,
    },
    {
      key: 'target',
      title: t('audit.target'),
      dataIndex: 'target',
      render: (v: string, row: AuditEvent) => (
        <span title={v} data-testid="audit-target">
          {targetLabel(v, t, row.target_name)}
        </span>
      ),
    },
    {
      key: 'detail',
      title: t('audit.detail'),
      dataIndex: 'detail',
      width: 260,
      ellipsis: true,
      // What happened is the row's point: shown on a phone too.
      phone: true,
      phoneWidth: 140,
      render: (v: string) => <span data-testid="audit-detail">{v || '-'}</span>,
    },
    { key: 'client_address', title: t('audit.address'), dataIndex: 'client_address', render: (v: string) => v || '-' },
  ];

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="audit-log-page">
      <FilterCard
        title={t('menu.finance.audit')}
        form={form}
        fields={fields}
        values={values}
        testId="audit-filters"
        searchTestId="audit-search"
        resetTestId="audit-reset"
        onSearch={(next) => {
          if (!apply(next)) void list.refetch();
        }}
        onReset={() => {
          if (!apply({})) void list.refetch();
        }}
      />
      <ListTable<AuditEvent>
        listKey="audit-log"
        title={
          <span data-testid="audit-total">
            {t(data?.total_capped ? 'common.totalCapped' : 'common.total', { count: data?.total ?? 0 })}
          </span>
        }
        onExport={(format) => exportAuditEvents(query, format)}
        columns={columns}
        rowKey="id"
        dataSource={data?.list ?? []}
        loading={list.isFetching}
        error={list.isError && !data}
        onRetry={() => void list.refetch()}
        tableTestId="audit-table"
        pagination={{
          current: page,
          pageSize,
          total: data?.total ?? 0,
          onChange: pages.changePage,
          testId: 'audit-pagination',
        }}
      />
    </Space>
  );
}
