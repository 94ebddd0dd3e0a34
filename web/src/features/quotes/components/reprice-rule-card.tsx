import { Button, Card, Form, Input, Popconfirm, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSuccessMessage } from '@/lib/feedback';
import { serverFieldErrors } from '@/lib/form-errors';
import { formatFen } from '@/lib/money';
import { carrierKey } from '@/lib/order-labels';
import {
  ACKNOWLEDGE_FIELD,
  applyReprice,
  percentToBasisPoints,
  type RepricePreview,
  type RepriceRow,
  type RepriceRule,
  type Rounding,
  usePreviewReprice,
  usePriceChange,
} from '../api/pricing';
import { MarginWarnings } from './margin-warnings';

interface RuleForm {
  carrier?: string;
  product_kind?: string;
  rate: string;
  rounding: Rounding;
}

/** A bulk rule: preview first, then apply what was previewed (recomputed in one transaction). */
export function RuleCard({ merchantId }: { merchantId: number | null }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<RuleForm>();
  const preview = usePreviewReprice();
  const apply = usePriceChange(applyReprice);
  const [shown, setShown] = useState<{ rule: RepriceRule; result: RepricePreview } | null>(null);
  const [acknowledged, setAcknowledged] = useState(false);
  const show = (next: { rule: RepriceRule; result: RepricePreview } | null) => {
    setShown(next);
    setAcknowledged(false);
  };
  const flagged = new Map((shown?.result.warnings ?? []).map((warning) => [warning.product_id, warning]));
  const ruleOf = (values: RuleForm): RepriceRule | null => {
    const rate = percentToBasisPoints(values.rate ?? '');
    if (merchantId === null || rate === null) return null;
    return {
      merchant_id: merchantId,
      carrier: values.carrier,
      product_kind: values.product_kind,
      rate_bp: rate,
      rounding: values.rounding,
    };
  };
  const columns = [
    { key: 'product_key', title: t('common.column.productKey'), dataIndex: 'product_key' },
    { key: 'product_name', title: t('common.column.productName'), dataIndex: 'product_name' },
    {
      key: 'face_value_fen',
      title: t('common.column.faceValue'),
      dataIndex: 'face_value_fen',
      align: 'right' as const,
      render: (value: number) => formatFen(value),
    },
    {
      key: 'old_price_fen',
      title: t('pricing.oldPrice'),
      dataIndex: 'old_price_fen',
      align: 'right' as const,
      render: (value: number | null) => (value === null ? <Tag>{t('pricing.noQuote')}</Tag> : formatFen(value)),
    },
    {
      key: 'new_price_fen',
      title: t('pricing.newPrice'),
      dataIndex: 'new_price_fen',
      align: 'right' as const,
      // Red only for a price that does not pay; a change alone is bold.
      render: (value: number, row: RepriceRow) => (
        <Typography.Text
          strong={row.old_price_fen !== value || flagged.has(row.product_id)}
          type={flagged.has(row.product_id) ? 'danger' : undefined}
          data-testid={flagged.has(row.product_id) ? 'pricing-flagged-price' : undefined}
        >
          {formatFen(value)}
        </Typography.Text>
      ),
    },
    {
      key: 'cheapest_cost_fen',
      title: t('pricing.cheapestCost'),
      dataIndex: 'cheapest_cost_fen',
      align: 'right' as const,
      render: (value?: number | null) => (value == null ? <Tag>{t('pricing.noChannel')}</Tag> : formatFen(value)),
    },
  ];
  const warnings = shown?.result.warnings ?? [];
  const applyNow = (current: { rule: RepriceRule; result: RepricePreview }) =>
    apply.mutate(
      { rule: current.rule, acknowledgement: warnings.length ? (current.result.acknowledgement ?? null) : null },
      {
        onSuccess: (result) => {
          showSuccessMessage(t('pricing.applied', { count: result.changed }));
          show(null);
        },
        onError: (error) => {
          // Costs or prices moved since the preview: show what holds now, to be confirmed again.
          if (serverFieldErrors(error).some((field) => field.name === ACKNOWLEDGE_FIELD)) {
            preview.mutate(current.rule, { onSuccess: (result) => show({ rule: current.rule, result }) });
          }
        },
      },
    );
  return (
    <Card title={t('pricing.rule')} data-testid="pricing-rule">
      <Typography.Paragraph type="secondary">{t('pricing.ruleHelp')}</Typography.Paragraph>
      <Form
        form={form}
        layout="inline"
        initialValues={{ rate: '98.5', rounding: 'half_up' }}
        onValuesChange={() => show(null)}
        onFinish={(values) => {
          const rule = ruleOf(values);
          if (rule) preview.mutate(rule, { onSuccess: (result) => show({ rule, result }) });
        }}
        style={{ rowGap: 12 }}
      >
        <Form.Item name="carrier" label={t('common.column.carrier')}>
          <Select
            allowClear
            style={{ width: 150 }}
            placeholder={t('pricing.allCarriers')}
            data-testid="pricing-carrier"
            options={['mobile', 'unicom', 'telecom'].map((carrier) => ({
              value: carrier,
              label: t(carrierKey(carrier)),
            }))}
          />
        </Form.Item>
        <Form.Item name="product_kind" label={t('quotes.productKind')}>
          <Select
            allowClear
            style={{ width: 150 }}
            placeholder={t('pricing.allKinds')}
            options={[
              { value: 'direct', label: t('quotes.kind.direct') },
              { value: 'card', label: t('quotes.kind.card') },
            ]}
          />
        </Form.Item>
        <Form.Item
          name="rate"
          label={t('pricing.rate')}
          rules={[
            {
              validator: (_, value: string | undefined) =>
                percentToBasisPoints(value ?? '') === null
                  ? Promise.reject(new Error(t('pricing.rateInvalid')))
                  : Promise.resolve(),
            },
          ]}
        >
          <Input style={{ width: 110 }} inputMode="decimal" suffix="%" data-testid="pricing-rate" />
        </Form.Item>
        <Form.Item name="rounding" label={t('pricing.rounding')}>
          <Select
            style={{ width: 140 }}
            options={(['half_up', 'down', 'up'] as const).map((value) => ({
              value,
              label: t(`pricing.rounding.${value}`),
            }))}
          />
        </Form.Item>
        <Form.Item>
          <Button
            htmlType="submit"
            loading={preview.isPending}
            disabled={merchantId === null}
            data-testid="pricing-preview"
          >
            {t('pricing.preview')}
          </Button>
        </Form.Item>
      </Form>
      {shown ? (
        <Space orientation="vertical" style={{ width: '100%', marginTop: 16 }}>
          <Space wrap>
            <span data-testid="pricing-summary">
              {t('pricing.previewSummary', { total: shown.result.rows.length, count: shown.result.changed })}
            </span>
            <Popconfirm
              title={
                warnings.length
                  ? t('pricing.applyConfirmWarnings', {
                      count: shown.result.changed,
                      mid: shown.rule.merchant_id,
                      warnings: warnings.length,
                    })
                  : t('pricing.applyConfirm', { count: shown.result.changed, mid: shown.rule.merchant_id })
              }
              okButtonProps={{
                danger: warnings.length > 0,
                ...({ 'data-testid': 'pricing-apply-confirm' } as Record<string, string>),
              }}
              onConfirm={() => applyNow(shown)}
            >
              <Button
                type="primary"
                danger={warnings.length > 0}
                loading={apply.isPending}
                disabled={shown.result.changed === 0 || (warnings.length > 0 && !acknowledged)}
                data-testid="pricing-apply"
              >
                {t('pricing.apply')}
              </Button>
            </Popconfirm>
          </Space>
          {warnings.length ? (
            <MarginWarnings preview={shown.result} acknowledged={acknowledged} onAcknowledge={setAcknowledged} />
          ) : null}
          <Table<RepriceRow>
            size="small"
            rowKey="product_id"
            columns={columns}
            dataSource={shown.result.rows}
            pagination={false}
            scroll={{ x: 'max-content', y: 360 }}
            data-testid="pricing-preview-table"
          />
        </Space>
      ) : null}
    </Card>
  );
}
