import { Alert, Checkbox, Grid, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatFen, formatSignedFen } from '@/lib/money';
import { basisPointsToPercent, type MarginWarning, type RepricePreview } from '../api/pricing';

/**
 * The prices a rule would set at or below the cheapest channel's cost or under the minimum
 * margin, each with its figures, and the box that must be ticked before they are applied.
 */
export function MarginWarnings({
  preview,
  acknowledged,
  onAcknowledge,
}: {
  preview: RepricePreview;
  acknowledged: boolean;
  onAcknowledge: (acknowledged: boolean) => void;
}) {
  const { t } = useTranslation();
  const margin = basisPointsToPercent(preview.min_margin_bp);
  // A phone has no room for five columns: one line per product there, every figure kept.
  const wide = Grid.useBreakpoint().md !== false;
  const columns = [
    {
      key: 'product',
      title: t('common.column.productKey'),
      dataIndex: 'product_key',
      render: (key: string, warning: MarginWarning) => <span title={warning.product_name}>{key}</span>,
    },
    {
      key: 'new_price_fen',
      title: t('pricing.newPrice'),
      dataIndex: 'new_price_fen',
      align: 'right' as const,
      render: (value: number) => formatFen(value),
    },
    {
      key: 'cheapest_cost_fen',
      title: t('pricing.cheapestCost'),
      dataIndex: 'cheapest_cost_fen',
      align: 'right' as const,
      render: (value: number) => formatFen(value),
    },
    {
      key: 'margin_fen',
      title: t('pricing.margin'),
      dataIndex: 'margin_fen',
      align: 'right' as const,
      render: (value: number) => (
        <Typography.Text type={value <= 0 ? 'danger' : 'warning'} strong>
          {formatSignedFen(value)}
        </Typography.Text>
      ),
    },
    {
      key: 'problem',
      title: t('pricing.problem'),
      dataIndex: 'problem',
      render: (problem: MarginWarning['problem'], warning: MarginWarning) => (
        <Tag color={problem === 'below_cost' ? 'error' : 'warning'}>
          {t(`pricing.problem.${problem}`, { min: formatFen(warning.min_margin_fen) })}
        </Tag>
      ),
    },
  ];
  return (
    <Alert
      type="error"
      showIcon
      data-testid="pricing-warnings"
      title={t('pricing.warnings.title', { count: preview.warnings.length, margin })}
      description={
        <>
          <Typography.Paragraph style={{ marginBottom: 8 }}>{t('pricing.warnings.help')}</Typography.Paragraph>
          {wide ? (
            <Table<MarginWarning>
              size="small"
              rowKey="product_id"
              columns={columns}
              dataSource={preview.warnings}
              pagination={false}
              scroll={{ x: 'max-content', y: 240 }}
              data-testid="pricing-warnings-table"
            />
          ) : (
            <ul
              style={{ margin: 0, paddingInlineStart: 18, maxHeight: 240, overflowY: 'auto' }}
              data-testid="pricing-warnings-table"
            >
              {preview.warnings.map((warning) => (
                <li key={warning.product_id}>
                  {t('pricing.warnings.line', {
                    key: warning.product_key,
                    price: formatFen(warning.new_price_fen),
                    cost: formatFen(warning.cheapest_cost_fen),
                    margin: formatSignedFen(warning.margin_fen),
                  })}
                </li>
              ))}
            </ul>
          )}
          <Checkbox
            style={{ marginTop: 12 }}
            checked={acknowledged}
            onChange={(event) => onAcknowledge(event.target.checked)}
            data-testid="pricing-acknowledge"
          >
            {t('pricing.warnings.acknowledge', { count: preview.warnings.length })}
          </Checkbox>
        </>
      }
    />
  );
}
