import { Alert, Button, Drawer, Form, Input, InputNumber, Modal, Radio, Select, Space, Tag, Typography } from 'antd';
import { type Key, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ListColumn, ListTable } from '@/components/list-page/list-table';
import { showSuccessMessage } from '@/lib/feedback';
import { applyServerFieldErrors } from '@/lib/form-errors';
import { formatFen } from '@/lib/money';
import { PROVINCE_CODES, provinceKey } from '@/lib/provinces';
import { useSubmission } from '@/lib/submission';
import { type Channel, saveSupplies, useCatalogue, useChannelChange, useSupplies } from '../api/channels';
import {
  type BulkEditValues,
  bulkFieldMap,
  bulkItems,
  PRIORITY_RANGE,
  type SupplyRow,
  supplyRows,
  WEIGHT_RANGE,
} from '../api/supplies';
import { CoverageFile } from './coverage-file';

const BULK_COST_ERRORS = {
  invalid: 'channels.supplies.costInvalid',
  required: 'channels.supplies.costRequired',
  percentInvalid: 'channels.supplies.percentInvalid',
  noFaceValue: 'channels.supplies.noFaceValue',
} as const;

/** Set cost, priority, weight, switch and coverage of the chosen rows at once (blank: each keeps its own). */
export function BulkEditDialog({
  channel,
  rows,
  onClose,
}: {
  channel: Channel;
  rows: SupplyRow[] | null;
  onClose: (saved: boolean) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<BulkEditValues>();
  const save = useChannelChange(saveSupplies);
  // A double click submits twice before the first answer: saved (and audited) once.
  const submission = useSubmission();
  const single = rows?.length === 1 ? rows[0].supply : null;
  const initial: BulkEditValues = single
    ? {
        costMode: 'yuan',
        cost: formatFen(single.cost_fen, { grouping: false }),
        priority: single.priority,
        weight: single.weight,
        enabled: single.enabled ? 'on' : 'off',
        coverage: single.provinces?.length ? 'provinces' : 'national',
        provinces: single.provinces ?? [],
      }
    : { costMode: 'yuan', enabled: 'keep', coverage: 'keep' };
  const percent = Form.useWatch('costMode', form) === 'percent';
  const chooseProvinces = Form.useWatch('coverage', form) === 'provinces';

  const submit = (values: BulkEditValues) => {
    if (!rows) return;
    const result = bulkItems(rows, values);
    if (!result.ok) {
      const message =
        result.field === 'provinces' ? 'channels.supplies.provincesRequired' : BULK_COST_ERRORS[result.reason];
      form.setFields([{ name: result.field, errors: [t(message)] }]);
      return;
    }
    const request = { id: channel.id, items: result.items };
    submission
      .run(request, () => save.mutateAsync(request))
      ?.then(() => {
        showSuccessMessage(t('channels.supplies.saved', { count: result.items.length }));
        onClose(true);
      })
      .catch((error: unknown) => applyServerFieldErrors(form, error, { fieldMap: bulkFieldMap(result.items.length) }));
  };

  return (
    <Modal
      open={rows !== null}
      title={t('channels.supplies.bulkTitle', { count: rows?.length ?? 0 })}
      onCancel={() => onClose(false)}
      onOk={() => form.submit()}
      confirmLoading={submission.pending}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'supplies-bulk-submit' } as Record<string, string>}
    >
      <Typography.Paragraph type="secondary">{t('channels.supplies.bulkHelp')}</Typography.Paragraph>
      <Form<BulkEditValues> form={form} layout="vertical" preserve={false} initialValues={initial} onFinish={submit}>
        <Space size={16} wrap align="start">
          <Form.Item name="costMode" label={t('channels.supplies.costMode')}>
            <Radio.Group
              optionType="button"
              data-testid="supplies-bulk-cost-mode"
              options={[
                { value: 'yuan', label: t('channels.supplies.costMode.yuan') },
                { value: 'percent', label: t('channels.supplies.costMode.percent') },
              ]}
            />
          </Form.Item>
          <Form.Item name="cost" label={t(percent ? 'channels.supplies.costPercent' : 'channels.supplies.cost')}>
            <Input
              inputMode="decimal"
              style={{ width: 180 }}
              allowClear
              suffix={percent ? '%' : undefined}
              data-testid="supplies-bulk-cost"
            />
          </Form.Item>
          <Form.Item name="enabled" label={t('channels.supplies.enabled')}>
            <Select
              style={{ width: 180 }}
              data-testid="supplies-bulk-enabled"
              options={[
                ...(single ? [] : [{ value: 'keep', label: t('channels.supplies.keep') }]),
                { value: 'on', label: t('channels.supplies.on') },
                { value: 'off', label: t('channels.supplies.off') },
              ]}
            />
          </Form.Item>
          <Form.Item name="priority" label={t('channels.supplies.priority')}>
            <InputNumber
              min={PRIORITY_RANGE[0]}
              max={PRIORITY_RANGE[1]}
              precision={0}
              style={{ width: 180 }}
              data-testid="supplies-bulk-priority"
            />
          </Form.Item>
          <Form.Item
            name="weight"
            label={t('channels.supplies.weight')}
            rules={[
              {
                type: 'integer',
                min: WEIGHT_RANGE[0],
                max: WEIGHT_RANGE[1],
                message: t('channels.supplies.weightRule'),
              },
            ]}
          >
            <InputNumber
              min={WEIGHT_RANGE[0]}
              max={WEIGHT_RANGE[1]}
              precision={0}
              style={{ width: 180 }}
              data-testid="supplies-bulk-weight"
            />
          </Form.Item>
        </Space>
        <Form.Item name="coverage" label={t('channels.supplies.coverageMode')}>
          <Radio.Group
            optionType="button"
            data-testid="supplies-bulk-coverage"
            options={[
              ...(single ? [] : [{ value: 'keep', label: t('channels.supplies.keep') }]),
              { value: 'national', label: t('channels.supplies.coverage.national') },
              { value: 'provinces', label: t('channels.supplies.coverage.provinces') },
            ]}
          />
        </Form.Item>
        {chooseProvinces ? (
          <Form.Item name="provinces" label={t('channels.supplies.provinces')}>
            <Select
              mode="multiple"
              allowClear
              optionFilterProp="label"
              placeholder={t('channels.supplies.provinces')}
              data-testid="supplies-bulk-provinces"
              options={PROVINCE_CODES.map((code) => ({ value: code, label: t(provinceKey(code)) }))}
            />
          </Form.Item>
        ) : null}
      </Form>
    </Modal>
  );
}

/**
 * The products of a channel: every catalogue product with the channel's cost (yuan shown,
 * fen sent), priority, weight and switch. Rows are chosen with check boxes and edited
 * together; a product the channel does not supply yet gets supplied by setting its cost.
 */
export function SuppliesDrawer({ channel, onClose }: { channel: Channel | null; onClose: () => void }) {
  const { t } = useTranslation();
  const supplies = useSupplies(channel?.id ?? null);
  const catalogue = useCatalogue();
  const [selected, setSelected] = useState<Key[]>([]);
  const [editing, setEditing] = useState<SupplyRow[] | null>(null);
  // A fresh form for every opening (the single-row edit starts from that row's values).
  const [editKey, setEditKey] = useState(0);
  const edit = (chosen: SupplyRow[]) => {
    setEditKey((key) => key + 1);
    setEditing(chosen);
  };
  const rows = useMemo(() => supplyRows(catalogue.data ?? [], supplies.data ?? []), [catalogue.data, supplies.data]);
  const supplied = rows.filter((row) => row.supply).length;

  const columns: ListColumn<SupplyRow>[] = [
    { key: 'product_key', title: t('channels.supplies.productKey'), dataIndex: 'product_key', phone: true, width: 170 },
    { key: 'name', title: t('channels.supplies.product'), dataIndex: 'name', ellipsis: true, width: 170 },
    {
      key: 'face_value',
      width: 110,
      title: t('channels.supplies.faceValue'),
      dataIndex: 'face_value_fen',
      align: 'right',
      render: (value: number | null) => formatFen(value),
    },
    {
      key: 'cost',
      width: 110,
      title: t('channels.supplies.cost'),
      align: 'right',
      phone: true,
      render: (_: unknown, row: SupplyRow) => (
        <span data-testid={`supply-cost-${row.product_key}`}>{row.supply ? formatFen(row.supply.cost_fen) : '-'}</span>
      ),
    },
    {
      key: 'priority',
      width: 80,
      title: t('channels.supplies.priority'),
      align: 'right',
      render: (_: unknown, row: SupplyRow) => row.supply?.priority ?? '-',
    },
    {
      key: 'weight',
      width: 80,
      title: t('channels.supplies.weight'),
      align: 'right',
      render: (_: unknown, row: SupplyRow) => row.supply?.weight ?? '-',
    },
    {
      key: 'coverage',
      width: 180,
      title: t('channels.supplies.coverage'),
      ellipsis: true,
      render: (_: unknown, row: SupplyRow) =>
        row.supply ? (
          <span data-testid={`supply-coverage-${row.product_key}`}>
            {row.supply.provinces?.length
              ? row.supply.provinces.map((code) => t(provinceKey(code))).join(t('channels.supplies.provinceSeparator'))
              : t('channels.supplies.coverage.national')}
          </span>
        ) : (
          '-'
        ),
    },
    {
      key: 'enabled',
      width: 100,
      title: t('channels.supplies.enabled'),
      render: (_: unknown, row: SupplyRow) =>
        row.supply ? (
          <Tag color={row.supply.enabled ? 'success' : 'default'}>
            {t(row.supply.enabled ? 'channels.supplies.on' : 'channels.supplies.off')}
          </Tag>
        ) : (
          <Tag>{t('channels.supplies.notSupplied')}</Tag>
        ),
    },
    {
      key: 'actions',
      width: 80,
      title: t('channels.column.actions'),
      fixed: 'right',
      render: (_: unknown, row: SupplyRow) => (
        <Button type="link" size="small" onClick={() => edit([row])} data-testid={`supply-edit-${row.product_key}`}>
          {t('channels.supplies.editOne')}
        </Button>
      ),
    },
  ];

  return (
    <Drawer
      open={channel !== null}
      onClose={onClose}
      size={1200}
      destroyOnHidden
      title={channel ? t('channels.supplies.title', { name: channel.name }) : null}
      data-testid="supplies-drawer"
    >
      {channel ? (
        <>
          {supplies.isError || catalogue.isError ? (
            <Alert type="error" showIcon title={t('common.loadFailed')} style={{ marginBottom: 12 }} />
          ) : null}
          <CoverageFile channel={channel} />
          <ListTable<SupplyRow>
            listKey="channel-supplies"
            title={
              <span data-testid="supplies-total">
                {t('channels.supplies.total', { count: supplied, all: rows.length })}
              </span>
            }
            columns={columns}
            rowKey="product_key"
            dataSource={rows}
            loading={supplies.isLoading || catalogue.isLoading}
            error={false}
            onRetry={() => void supplies.refetch()}
            tableTestId="supplies-table"
            rowSelection={{ selectedRowKeys: selected, onChange: setSelected }}
            extra={
              <Space>
                {selected.length ? (
                  <Typography.Text type="secondary" data-testid="supplies-selected">
                    {t('channels.supplies.selected', { count: selected.length })}
                  </Typography.Text>
                ) : null}
                <Button
                  type="primary"
                  disabled={!selected.length}
                  onClick={() => edit(rows.filter((row) => selected.includes(row.product_key)))}
                  data-testid="supplies-bulk-edit"
                >
                  {t('channels.supplies.bulkEdit')}
                </Button>
              </Space>
            }
          />
          <BulkEditDialog
            key={editKey}
            channel={channel}
            rows={editing}
            onClose={(saved) => {
              setEditing(null);
              if (saved) setSelected([]);
            }}
          />
        </>
      ) : null}
    </Drawer>
  );
}
