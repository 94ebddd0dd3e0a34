import { Alert, Button, Card, Form, InputNumber, Space, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePageNumbers } from '@/components/list-page/use-page-numbers';
import { showSuccessMessage } from '@/lib/feedback';
import { serverFieldErrors } from '@/lib/form-errors';
import { formatFen } from '@/lib/money';
import { formatTime } from '@/lib/platform-time';
import { importQuotes, type PriceHistoryItem, usePriceChange, usePriceHistory } from '../api/pricing';
import { RuleCard } from './reprice-rule-card';
import '@/locales/catalogue-texts';

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
    { key: 'product_key', title: t('common.column.productKey'), dataIndex: 'product_key' },
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
