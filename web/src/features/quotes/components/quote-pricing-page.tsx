import {
  Alert,
  Button,
  Card,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Select,
  Space,
  Table,
  Tag,
  Typography,
  Upload,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePageNumbers } from '@/components/list-page/use-page-numbers';
import { showSuccessMessage } from '@/lib/feedback';
import { serverFieldErrors } from '@/lib/form-errors';
import { formatFen } from '@/lib/money';
import { carrierKey } from '@/lib/order-labels';
import { formatTime } from '@/lib/platform-time';
import {
  applyReprice,
  importQuotes,
  percentToBasisPoints,
  type PriceHistoryItem,
  type RepricePreview,
  type RepriceRow,
  type RepriceRule,
  type Rounding,
  usePreviewReprice,
  usePriceChange,
  usePriceHistory,
} from '../api/pricing';
import '@/locales/catalogue-texts';

interface RuleForm {
  carrier?: string;
  product_kind?: string;
  rate: string;
  rounding: Rounding;
}

/** A bulk rule: preview first, then apply what was previewed (recomputed in one transaction). */
function RuleCard({ merchantId }: { merchantId: number | null }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<RuleForm>();
  const preview = usePreviewReprice();
  const apply = usePriceChange(applyReprice);
  const [shown, setShown] = useState<{ rule: RepriceRule; result: RepricePreview } | null>(null);
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
    { key: 'product_key', title: t('orderCommon.column.productKey'), dataIndex: 'product_key' },
    { key: 'product_name', title: t('orderCommon.column.productName'), dataIndex: 'product_name' },
    {
      key: 'face_value_fen',
      title: t('orderCommon.column.faceValue'),
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
      render: (value: number, row: RepriceRow) => (
        <Typography.Text
          strong={row.old_price_fen !== value}
          type={row.old_price_fen !== value ? 'warning' : undefined}
        >
          {formatFen(value)}
        </Typography.Text>
      ),
    },
  ];
  return (
    <Card title={t('pricing.rule')} data-testid="pricing-rule">
      <Typography.Paragraph type="secondary">{t('pricing.ruleHelp')}</Typography.Paragraph>
      <Form
        form={form}
        layout="inline"
        initialValues={{ rate: '98.5', rounding: 'half_up' }}
        onValuesChange={() => setShown(null)}
        onFinish={(values) => {
          const rule = ruleOf(values);
          if (rule) preview.mutate(rule, { onSuccess: (result) => setShown({ rule, result }) });
        }}
        style={{ rowGap: 12 }}
      >
        <Form.Item name="carrier" label={t('orderCommon.column.carrier')}>
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
              title={t('pricing.applyConfirm', { count: shown.result.changed, mid: shown.rule.merchant_id })}
              okButtonProps={{ 'data-testid': 'pricing-apply-confirm' } as Record<string, string>}
              onConfirm={() =>
                apply.mutate(shown.rule, {
                  onSuccess: (result) => {
                    showSuccessMessage(t('pricing.applied', { count: result.changed }));
                    setShown(null);
                  },
                })
              }
            >
              <Button
                type="primary"
                loading={apply.isPending}
                disabled={shown.result.changed === 0}
                data-testid="pricing-apply"
              >
                {t('pricing.apply')}
              </Button>
            </Popconfirm>
          </Space>
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

/** Import a price list: every bad line is listed and nothing changes until all are good. */
function ImportCard({ merchantId }: { merchantId: number | null }) {
  const { t } = useTranslation();
  const upload = usePriceChange(importQuotes);
  const [errors, setErrors] = useState<string[]>([]);
  return (
    <Card title={t('pricing.import')} data-testid="pricing-import">
      <Typography.Paragraph type="secondary">{t('pricing.importHelp')}</Typography.Paragraph>
      <Upload
        accept=".csv,.xlsx,.txt"
        showUploadList={false}
        disabled={merchantId === null}
        beforeUpload={(file) => {
          if (merchantId === null) return false;
          setErrors([]);
          upload.mutate(
            { merchantId, file },
            {
              onSuccess: (result) =>
                showSuccessMessage(t('pricing.imported', { lines: result.lines, count: result.changed })),
              onError: (error) => setErrors(serverFieldErrors(error).map((item) => item.message)),
            },
          );
          return false;
        }}
      >
        <Button loading={upload.isPending} disabled={merchantId === null} data-testid="pricing-import-file">
          {t('pricing.importFile')}
        </Button>
      </Upload>
      {errors.length ? (
        <Alert
          style={{ marginTop: 16 }}
          type="error"
          showIcon
          title={t('pricing.importErrors')}
          description={
            <ul style={{ margin: 0, paddingInlineStart: 20 }} data-testid="pricing-import-errors">
              {errors.map((error) => (
                <li key={error}>{error}</li>
              ))}
            </ul>
          }
        />
      ) : null}
    </Card>
  );
}

function HistoryCard({ merchantId }: { merchantId: number | null }) {
  const { t } = useTranslation();
  const { page, pageSize, onChange } = usePageNumbers(20);
  const history = usePriceHistory(merchantId, page, pageSize);
  const columns = [
    { key: 'changed_at', title: t('pricing.changedAt'), dataIndex: 'changed_at', render: formatTime },
    { key: 'product_key', title: t('orderCommon.column.productKey'), dataIndex: 'product_key' },
    {
      key: 'old_price_fen',
      title: t('pricing.before'),
      dataIndex: 'old_price_fen',
      align: 'right' as const,
      render: (value: number | null) => (value === null ? t('pricing.noQuote') : formatFen(value)),
    },
    {
      key: 'new_price_fen',
      title: t('pricing.after'),
      dataIndex: 'new_price_fen',
      align: 'right' as const,
      render: (value: number) => formatFen(value),
    },
    {
      key: 'source',
      title: t('pricing.source'),
      dataIndex: 'source',
      render: (value: PriceHistoryItem['source']) => t(`pricing.source.${value}`),
    },
    { key: 'changed_by', title: t('pricing.changedBy'), dataIndex: 'changed_by' },
  ];
  return (
    <Card title={t('pricing.history')}>
      <Table<PriceHistoryItem>
        size="small"
        rowKey="id"
        columns={columns}
        dataSource={history.data?.list ?? []}
        loading={history.isFetching}
        scroll={{ x: 'max-content' }}
        data-testid="pricing-history-table"
        pagination={{ current: page, pageSize, total: history.data?.total ?? 0, onChange }}
      />
    </Card>
  );
}

/**
 * The merchant id typed, when it is one: a whole number from 1 up. Anything else (99.2, 0)
 * is no merchant, so nothing is asked of the server for it (it would refuse the number).
 */
export function wholeMerchantId(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null;
}

/** Repricing (/qoute/pricing, administrators): one merchant's bulk rule, import and price history. */
export default function QuotePricingPage() {
  const { t } = useTranslation();
  const [merchantId, setMerchantId] = useState<number | null>(null);
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="quote-pricing-page">
      <Card title={t('menu.qoute.pricing')}>
        <Form<{ merchant: number | null }>
          layout="inline"
          onValuesChange={(_, values) => setMerchantId(wholeMerchantId(values.merchant))}
        >
          <Form.Item
            name="merchant"
            label={t('pricing.merchant')}
            style={{ marginBottom: 0 }}
            rules={[
              {
                // Not rounded (precision) either: 99.2 would quietly become merchant 99.
                validator: (_, value: unknown) =>
                  value === null || value === undefined || wholeMerchantId(value) !== null
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('pricing.merchantWhole'))),
              },
            ]}
          >
            <InputNumber<number>
              style={{ width: 180 }}
              placeholder={t('pricing.merchantRequired')}
              data-testid="pricing-merchant"
            />
          </Form.Item>
        </Form>
      </Card>
      <RuleCard merchantId={merchantId} />
      <ImportCard merchantId={merchantId} />
      <HistoryCard merchantId={merchantId} />
    </Space>
  );
}
