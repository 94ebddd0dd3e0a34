import { Button, Popconfirm, Space, Tag } from 'antd';
import { useState } from 'react';
import { ListPage } from '@/components/list-page/list-page';
import { useTranslation } from 'react-i18next';
import type { ListColumn } from '@/components/list-page/list-table';
import { useListPage } from '@/components/list-page/use-list-page';
import { showSuccessMessage } from '@/lib/feedback';
import { formatTime, formatTimeAs } from '@/lib/platform-time';
import { provinceKey } from '@/lib/provinces';
import { deleteWindow, type MaintenanceWindow, useWindowChange, windowsQueryOptions } from '../api/windows';
import { WindowDialog } from './window-dialog';
import '@/locales/windows-texts';

/** Maintenance windows (/qoute/windows, administrators): what they close and when. */
export default function WindowsPage() {
  const { t } = useTranslation();
  const state = useListPage({
    paging: 'numbers',
    toQuery: () => ({}),
    queryOptions: (_query, page) => windowsQueryOptions(page.page, page.page_size),
  });
  const remove = useWindowChange(deleteWindow);
  const [dialog, setDialog] = useState<{ editing?: MaintenanceWindow } | null>(null);

  const scopeText = (window: MaintenanceWindow) => {
    const carrier = window.carrier ? t(`common.carrier.${window.carrier}`) : '';
    if (window.scope === 'channel')
      return t('windows.scopeChannel', { name: window.channel_name ?? window.channel_id });
    if (window.scope === 'province' && window.province) return `${carrier} · ${t(provinceKey(window.province))}`;
    return carrier;
  };
  const whenText = (window: MaintenanceWindow) => {
    if (window.recurrence === 'once') {
      return `${formatTimeAs(window.starts_at, 'YYYY-MM-DD HH:mm')} – ${formatTimeAs(window.ends_at, 'YYYY-MM-DD HH:mm')}`;
    }
    const span = `${window.span_start}–${window.span_end}`;
    const next =
      window.span_end && window.span_start && window.span_end <= window.span_start ? t('windows.nextDay') : '';
    const day =
      window.recurrence === 'weekly'
        ? t(`windows.weekday.${window.day}`)
        : window.recurrence === 'monthly'
          ? t('windows.monthDayText', { day: window.day })
          : '';
    return [t(`windows.recurrence.${window.recurrence}`), day, span, next].filter(Boolean).join(' ');
  };

  const columns: ListColumn<MaintenanceWindow>[] = [
    { key: 'title', title: t('windows.title'), dataIndex: 'title', phone: true, phoneWidth: 140 },
    { key: 'scope', title: t('windows.scope'), render: (_: unknown, window: MaintenanceWindow) => scopeText(window) },
    { key: 'when', title: t('windows.when'), render: (_: unknown, window: MaintenanceWindow) => whenText(window) },
    {
      key: 'running',
      title: t('windows.state'),
      render: (_: unknown, window: MaintenanceWindow) =>
        window.running ? <Tag color="orange">{t('windows.running')}</Tag> : <Tag>{t('windows.idle')}</Tag>,
    },
    { key: 'note', title: t('windows.note'), dataIndex: 'note', ellipsis: true },
    { key: 'created_by', title: t('windows.createdBy'), dataIndex: 'created_by' },
    {
      key: 'updated_at',
      title: t('windows.updatedAt'),
      dataIndex: 'updated_at',
      render: (value: string) => formatTime(value),
    },
    {
      key: 'actions',
      title: t('windows.actions'),
      phone: true,
      phoneWidth: 120,
      render: (_: unknown, window: MaintenanceWindow) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            onClick={() => setDialog({ editing: window })}
            data-testid={`window-edit-${window.id}`}
          >
            {t('windows.edit')}
          </Button>
          <Popconfirm
            title={t('windows.deleteConfirm', { title: window.title })}
            onConfirm={() => remove.mutate(window.id, { onSuccess: () => showSuccessMessage(t('windows.deleted')) })}
          >
            <Button type="link" size="small" danger data-testid={`window-delete-${window.id}`}>
              {t('windows.delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <ListPage<MaintenanceWindow, object>
      state={state}
      testId="windows-page"
      total={{ testId: 'windows-total', textKey: 'windows.total' }}
      listKey="maintenance-windows"
      columns={columns}
      rowKey="id"
      tableTestId="windows-table"
      paginationTestId="windows-pagination"
      extra={
        <Button type="primary" onClick={() => setDialog({})} data-testid="window-create">
          {t('windows.create')}
        </Button>
      }
    >
      <WindowDialog open={dialog !== null} editing={dialog?.editing} onClose={() => setDialog(null)} />
    </ListPage>
  );
}
