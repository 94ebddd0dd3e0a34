import { Alert, Button, Form, Input, Modal, Select, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { FilterField } from '@/components/list-page/filter-card';
import { ListPage } from '@/components/list-page/list-page';
import type { ListColumn } from '@/components/list-page/list-table';
import { useListPage } from '@/components/list-page/use-list-page';
import { showSuccessMessage } from '@/lib/feedback';
import { applyServerFieldErrors } from '@/lib/form-errors';
import { formatTime } from '@/lib/platform-time';
import { useSubmission } from '@/lib/submission';
import {
  exportPorts,
  PORT_CARRIERS,
  PORT_FILTER_SCHEMA,
  type PortedNumber,
  type PortQuery,
  portOrderLink,
  portsQueryOptions,
  toPortQuery,
  useRemovePort,
} from '../api/ported-numbers';
import '@/locales/ported-numbers-texts';

/**
 * Remove one record, with the reason. One removal per record: a second click while the
 * first is on its way is refused by the submission, and one after its answer (the closing
 * dialog's button) by `removed`, forgotten only when the dialog opens again.
 */
function RemoveDialog({ port, onClose }: { port: PortedNumber | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason: string }>();
  const remove = useRemovePort();
  const submission = useSubmission();
  const removed = useRef<string | null>(null);
  useEffect(() => {
    if (port) removed.current = null;
  }, [port]);
  const submit = ({ reason }: { reason: string }) => {
    if (!port || removed.current === port.number) return;
    submission
      .run({ number: port.number, reason }, () => remove.mutateAsync({ number: port.number, reason }))
      ?.then(() => {
        removed.current = port.number;
        showSuccessMessage(t('ports.removed', { number: port.number }));
        onClose();
      })
      .catch((error: unknown) => applyServerFieldErrors(form, error));
  };
  return (
    <Modal
      open={port !== null}
      title={port ? t('ports.removeTitle', { number: port.number }) : ''}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('ports.remove')}
      okButtonProps={
        { danger: true, loading: submission.pending, 'data-testid': 'ports-remove-confirm' } as {
          danger: boolean;
          loading: boolean;
        }
      }
      destroyOnHidden
    >
      <Alert type="warning" showIcon title={t('ports.removeHint')} style={{ marginBottom: 16 }} />
      <Form form={form} layout="vertical" onFinish={submit} preserve={false}>
        <Form.Item
          name="reason"
          label={t('ports.reason')}
          rules={[{ required: true, whitespace: true, max: 200, message: t('ports.reasonRequired') }]}
        >
          <Input.TextArea maxLength={200} showCount autoSize={{ minRows: 2 }} data-testid="ports-remove-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The ported numbers (/qoute/portedNumbers, administrators): what suppliers reported, and removal of a wrong one. */
export default function PortedNumbersPage() {
  const { t } = useTranslation();
  const state = useListPage({
    schema: PORT_FILTER_SCHEMA,
    paging: 'numbers',
    toQuery: toPortQuery,
    queryOptions: (query, page) => portsQueryOptions(query, page.page, page.page_size),
  });
  const [removing, setRemoving] = useState<PortedNumber | null>(null);

  const fields: FilterField[] = [
    {
      name: 'number',
      label: t('ports.number'),
      input: <Input allowClear maxLength={32} placeholder={t('ports.numberHint')} data-testid="ports-filter-number" />,
    },
    {
      name: 'carrier',
      label: t('ports.fromCarrier'),
      input: (
        <Select
          allowClear
          placeholder={t('common.filter.all')}
          data-testid="ports-filter-carrier"
          options={PORT_CARRIERS.map((value) => ({ value, label: t(`common.carrier.${value}`) }))}
        />
      ),
    },
  ];

  const columns: ListColumn<PortedNumber>[] = [
    { key: 'number', title: t('ports.number'), dataIndex: 'number', phone: true, phoneWidth: 120 },
    {
      key: 'from_carrier',
      title: t('ports.fromCarrier'),
      dataIndex: 'from_carrier',
      render: (value: string) => t(`common.carrier.${value}`),
    },
    {
      key: 'channel_name',
      title: t('ports.channel'),
      dataIndex: 'channel_name',
      ellipsis: true,
      render: (value: string | null) => value ?? <Typography.Text type="secondary">-</Typography.Text>,
    },
    {
      key: 'system_order_id',
      title: t('common.column.systemOrderId'),
      dataIndex: 'system_order_id',
      render: (value: string | null, port) => {
        const link = portOrderLink(port);
        return link && value ? (
          <Link to={link} data-testid={`ports-order-${port.number}`}>
            {value}
          </Link>
        ) : (
          '-'
        );
      },
    },
    {
      key: 'recorded_at',
      title: t('ports.recordedAt'),
      dataIndex: 'recorded_at',
      render: (value: string) => formatTime(value),
    },
    {
      key: 'actions',
      title: t('common.column.actions'),
      phone: true,
      phoneWidth: 80,
      render: (_: unknown, port) => (
        <Button
          type="link"
          size="small"
          danger
          onClick={() => setRemoving(port)}
          data-testid={`ports-remove-${port.number}`}
        >
          {t('ports.remove')}
        </Button>
      ),
    },
  ];

  return (
    <ListPage<PortedNumber, PortQuery>
      state={state}
      testId="ported-numbers-page"
      top={<Alert type="info" showIcon title={t('ports.about')} data-testid="ports-about" />}
      filters={{
        title: t('menu.qoute.portedNumbers'),
        fields,
        testId: 'ports-filters',
        searchTestId: 'ports-search',
        resetTestId: 'ports-reset',
      }}
      total={{ testId: 'ports-total' }}
      onExport={exportPorts}
      listKey="ported-numbers"
      columns={columns}
      rowKey="number"
      tableTestId="ports-table"
      paginationTestId="ports-pagination"
    >
      <RemoveDialog port={removing} onClose={() => setRemoving(null)} />
    </ListPage>
  );
}
