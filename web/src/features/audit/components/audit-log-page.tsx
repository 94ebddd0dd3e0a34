import { Input, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { rangeToIso } from '@/components/list-page/date-presets';
import { DateRangeFilter, type FilterField } from '@/components/list-page/filter-card';
import { ListPage } from '@/components/list-page/list-page';
import type { ListColumn } from '@/components/list-page/list-table';
import type { FilterSchema, FilterValues } from '@/components/list-page/url-filters';
import { useListPage } from '@/components/list-page/use-list-page';
import { currentLocale } from '@/lib/i18n';
import { formatTime } from '@/lib/platform-time';
import '@/locales/audit-texts';
import {
  type AuditEvent,
  type AuditFilters,
  type AuditQuery,
  auditEventsQueryOptions,
  exportAuditEvents,
  toAuditQuery,
  useAuditActions,
} from '../api/audit';

const SCHEMA: FilterSchema = { texts: ['actor', 'action', 'target'], ranges: ['range'] };

const TARGET_KINDS = ['user', 'merchant', 'order', 'channel', 'port'] as const;

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
  const locale = i18n.language || currentLocale();
  const state = useListPage({
    schema: SCHEMA,
    paging: 'cursor',
    toQuery: (values) => toAuditQuery(toFilters(values)),
    // Details come in the request's language: another language is another list.
    queryOptions: (query, page) => auditEventsQueryOptions({ ...query, ...page }, locale),
  });
  const actions = useAuditActions(locale);

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
      render: (v: string) => v,
    },
    {
      key: 'target',
      title: t('audit.target'),
      dataIndex: 'target',
      // A 64-character merchant name is cut, shown whole in the kit's tooltip.
      width: 200,
      ellipsis: true,
      render: (v: string, row: AuditEvent) => (
        <span data-testid="audit-target">{targetLabel(v, t, row.target_name)}</span>
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
    <ListPage<AuditEvent, AuditQuery>
      state={state}
      testId="audit-log-page"
      filters={{
        title: t('menu.finance.audit'),
        fields,
        testId: 'audit-filters',
        searchTestId: 'audit-search',
        resetTestId: 'audit-reset',
      }}
      total={{ testId: 'audit-total' }}
      onExport={exportAuditEvents}
      listKey="audit-log"
      columns={columns}
      rowKey="id"
      tableTestId="audit-table"
      paginationTestId="audit-pagination"
    />
  );
}
