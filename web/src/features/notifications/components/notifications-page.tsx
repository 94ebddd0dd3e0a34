import { Alert, App, Button, Input, InputNumber, Select, Space, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { rangeToIso } from '@/components/list-page/date-presets';
import { DateRangeFilter, type FilterField } from '@/components/list-page/filter-card';
import { ListPage } from '@/components/list-page/list-page';
import type { ListColumn } from '@/components/list-page/list-table';
import { useMerchantColumn } from '@/components/list-page/merchant-column';
import type { FilterSchema, FilterValues } from '@/components/list-page/url-filters';
import { useListPage } from '@/components/list-page/use-list-page';
import { usePermission } from '@/components/permission/use-permission';
import { formatTime } from '@/lib/platform-time';
import {
  type AttemptResult,
  NOTIFICATION_STATES,
  type NotificationFilters,
  type NotificationItem,
  type NotificationQuery,
  type NotificationState,
  notificationsQueryOptions,
  toNotificationQuery,
  useNotificationActions,
} from '../api/notifications';
import '@/locales/notify-texts';

const SCHEMA: FilterSchema = { texts: ['state', 'orderNo'], numbers: ['merchantId'], ranges: ['range'] };

export const STATE_COLORS: Record<NotificationState, string> = {
  pending: 'processing',
  delivered: 'success',
  failed: 'warning',
  exhausted: 'error',
};

/** Address values → list filters; values the API would refuse are dropped. */
export function toFilters(values: FilterValues): NotificationFilters {
  const state = NOTIFICATION_STATES.find((value) => value === values.state);
  return {
    state,
    orderNo: typeof values.orderNo === 'string' ? values.orderNo : undefined,
    merchantId: typeof values.merchantId === 'number' && values.merchantId > 0 ? values.merchantId : undefined,
    ...rangeToIso(Array.isArray(values.range) ? values.range : null),
  };
}

/** The answer of a test notification, in a sentence. */
function TestResult({ result }: { result: AttemptResult }) {
  const { t } = useTranslation();
  return (
    <Alert
      data-testid="notify-test-result"
      type={result.delivered ? 'success' : 'error'}
      showIcon
      title={result.delivered ? t('notify.test.delivered') : t('notify.test.failed')}
      description={t('notify.test.detail', {
        status: result.http_status ?? '-',
        latency: result.latency_ms,
        error: result.error ?? '-',
      })}
    />
  );
}

/** Notifications (/order/notifications): callbacks to merchants, their state, resends and a test. */
export default function NotificationsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const isAdmin = usePermission(['admin']);
  const state = useListPage({
    schema: SCHEMA,
    paging: 'numbers',
    toQuery: (values) => toNotificationQuery(toFilters(values)),
    queryOptions: (query, page) => notificationsQueryOptions({ ...query, ...page }),
  });
  const filters = toFilters(state.values);
  const actions = useNotificationActions();
  const [testResult, setTestResult] = useState<AttemptResult | null>(null);
  const merchantColumn = useMerchantColumn<NotificationItem>();
  const all = t('common.filter.all');

  const fields: FilterField[] = [
    {
      name: 'range',
      label: t('notify.column.createdAt'),
      tooltip: t('listPage.rangeTooltip'),
      wide: true,
      input: <DateRangeFilter data-testid="notify-filter-range" />,
    },
    {
      name: 'state',
      label: t('notify.column.state'),
      input: (
        <Select
          allowClear
          data-testid="notify-filter-state"
          placeholder={all}
          options={NOTIFICATION_STATES.map((value) => ({ value, label: t(`notify.state.${value}`) }))}
        />
      ),
    },
    {
      name: 'orderNo',
      label: t('common.column.orderNo'),
      input: <Input allowClear maxLength={32} data-testid="notify-filter-order-no" />,
    },
    ...(isAdmin
      ? [
          {
            name: 'merchantId',
            label: t('common.filter.merchantId'),
            input: (
              <InputNumber min={1} precision={0} style={{ width: '100%' }} data-testid="notify-filter-merchant-id" />
            ),
          },
        ]
      : []),
  ];

  const columns: ListColumn<NotificationItem>[] = [
    { key: 'created_at', title: t('notify.column.createdAt'), dataIndex: 'created_at', render: formatTime },
    ...(merchantColumn ? [merchantColumn] : []),
    {
      key: 'order_no',
      title: t('common.column.orderNo'),
      dataIndex: 'order_no',
      phone: true,
      render: (v: string | null, row) => v || t(`notify.type.${row.event_type === 'test' ? 'test' : 'order'}`),
    },
    {
      key: 'state',
      title: t('notify.column.state'),
      dataIndex: 'state',
      phone: true,
      phoneWidth: 90,
      render: (v: NotificationState) => (
        <Tag color={STATE_COLORS[v]} data-testid="notify-state">
          {t(`notify.state.${v}`)}
        </Tag>
      ),
    },
    { key: 'attempts', title: t('notify.column.attempts'), dataIndex: 'attempts', align: 'right' },
    {
      key: 'next_attempt_at',
      title: t('notify.column.nextAttempt'),
      dataIndex: 'next_attempt_at',
      render: formatTime,
    },
    { key: 'delivered_at', title: t('notify.column.deliveredAt'), dataIndex: 'delivered_at', render: formatTime },
    { key: 'url', title: t('notify.column.url'), dataIndex: 'url', width: 220, ellipsis: true },
    {
      key: 'last_error',
      title: t('notify.column.lastError'),
      dataIndex: 'last_error',
      width: 220,
      ellipsis: true,
      render: (v: string | null) => v || '-',
    },
    { key: 'event_id', title: t('notify.column.eventId'), dataIndex: 'event_id', width: 160, ellipsis: true },
    {
      key: 'actions',
      title: t('notify.column.actions'),
      fixed: 'right',
      render: (_: unknown, row) => (
        <Button
          size="small"
          type="link"
          data-testid="notify-resend"
          loading={actions.resend.isPending && actions.resend.variables === row.id}
          onClick={() =>
            actions.resend.mutate(row.id, {
              onSuccess: () => void message.success(t('notify.resend.done', { count: 1 })),
            })
          }
        >
          {t('notify.resend')}
        </Button>
      ),
    },
  ];

  const resendFailed = () => {
    if (!filters.startTime || !filters.endTime) {
      void message.warning(t('notify.resendFailed.needRange'));
      return;
    }
    actions.resendFailed.mutate(
      {
        from: filters.startTime,
        to: filters.endTime,
        ...(filters.merchantId ? { merchant_id: filters.merchantId } : {}),
      },
      { onSuccess: (answer) => void message.success(t('notify.resend.done', { count: answer.queued })) },
    );
  };

  return (
    <ListPage<NotificationItem, NotificationQuery>
      state={state}
      testId="notifications-page"
      filters={{
        title: t('menu.order.notifications'),
        fields,
        testId: 'notify-filters',
        searchTestId: 'notify-search',
        resetTestId: 'notify-reset',
      }}
      middle={testResult ? <TestResult result={testResult} /> : null}
      total={{ testId: 'notify-total' }}
      listKey="notifications"
      extra={
        <Space>
          <Tooltip title={t('notify.resendFailed.hint')}>
            <Button data-testid="notify-resend-failed" loading={actions.resendFailed.isPending} onClick={resendFailed}>
              {t('notify.resendFailed')}
            </Button>
          </Tooltip>
          {isAdmin ? null : (
            <Button
              data-testid="notify-test"
              loading={actions.test.isPending}
              onClick={() => actions.test.mutate(undefined, { onSuccess: setTestResult })}
            >
              {t('notify.test')}
            </Button>
          )}
        </Space>
      }
      columns={columns}
      rowKey="id"
      tableTestId="notify-table"
      paginationTestId="notify-pagination"
    >
      <Typography.Paragraph type="secondary">{t('notify.page.hint')}</Typography.Paragraph>
    </ListPage>
  );
}
