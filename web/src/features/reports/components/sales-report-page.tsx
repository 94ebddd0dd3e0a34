import { Card, Form, Space, Statistic, Switch, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '@/components/echart/echart';
import { type ListColumn, ListTable } from '@/components/list-page/list-table';
import { MerchantSelect } from '@/components/merchant-select/merchant-select';
import { usePermission } from '@/components/permission/use-permission';
import { formatFen } from '@/lib/money';
import '@/locales/report-texts';
import {
  byPeriod,
  exportSalesReport,
  formatRatio,
  type SalesQuery,
  type SalesRow,
  useSalesReport,
} from '../api/reports';
import { reportChartOption } from './report-chart-option';
import { lastThirtyDays, ReportRangeFields } from './report-range';

/**
 * The sales report (/finance/sales): a merchant's orders of a range of Beijing days by day or
 * month (and product), by status, with the face value and spend of the successes, read from
 * the server's roll-up. Merchants see their own; administrators one merchant or all.
 */
export default function SalesReportPage() {
  const { t } = useTranslation();
  const isAdmin = usePermission(['admin']);
  const [query, setQuery] = useState<SalesQuery>(() => ({ ...lastThirtyDays(), by_product: false }));
  const report = useSalesReport(query);
  const rows = useMemo(() => report.data?.rows ?? [], [report.data]);

  const option = useMemo(() => {
    const { periods, series } = byPeriod(rows, (row) => [row.successes, row.failures + row.reversals, row.in_flight]);
    return reportChartOption(periods, [
      { name: t('report.successes'), data: series[0] ?? [], kind: 'bar', color: '#00b42a' },
      { name: t('report.failedOrReversed'), data: series[1] ?? [], kind: 'bar', color: '#f53f3f' },
      { name: t('report.inFlight'), data: series[2] ?? [], kind: 'line', color: '#86909c' },
    ]);
  }, [rows, t]);

  const count = (key: keyof SalesRow & string, title: string): ListColumn<SalesRow> => ({
    key,
    title,
    dataIndex: key,
    align: 'right',
  });
  const columns: ListColumn<SalesRow>[] = [
    { key: 'period', title: t('report.period'), dataIndex: 'period', phone: true, phoneWidth: 100 },
    ...(query.by_product
      ? [{ key: 'product', title: t('report.product'), render: (_: unknown, row: SalesRow) => row.product_name }]
      : []),
    count('orders', t('report.orders')),
    count('successes', t('report.successes')),
    count('failures', t('report.failures')),
    count('reversals', t('report.reversals')),
    count('in_flight', t('report.inFlight')),
    {
      key: 'success_ratio',
      title: t('report.successRatio'),
      align: 'right',
      phone: true,
      phoneWidth: 80,
      render: (_: unknown, row: SalesRow) => formatRatio(row.success_ratio),
    },
    {
      key: 'face_value_fen',
      title: t('report.faceValue'),
      align: 'right',
      render: (_: unknown, row: SalesRow) => formatFen(row.face_value_fen),
    },
    {
      key: 'spend_fen',
      title: t('report.spend'),
      align: 'right',
      phone: true,
      phoneWidth: 100,
      render: (_: unknown, row: SalesRow) => formatFen(row.spend_fen),
    },
  ];

  const totals = report.data?.totals;
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="sales-report-page">
      <Card title={t('menu.finance.salesReport')}>
        <Form layout="inline">
          <ReportRangeFields value={query} onChange={(range) => setQuery({ ...query, ...range })} />
          <Form.Item label={t('report.byProduct')}>
            <Switch
              checked={query.by_product}
              onChange={(by_product) => setQuery({ ...query, by_product })}
              data-testid="report-by-product"
              aria-label={t('report.byProduct')}
            />
          </Form.Item>
          {isAdmin ? (
            <Form.Item label={t('report.merchantId')}>
              <MerchantSelect
                value={query.merchant_id ?? null}
                onChange={(merchant_id) => setQuery({ ...query, merchant_id })}
                placeholder={t('report.allMerchants')}
                width={200}
                testId="report-merchant"
                ariaLabel={t('report.merchantId')}
              />
            </Form.Item>
          ) : null}
        </Form>
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          {t('report.salesHint')}
        </Typography.Paragraph>
      </Card>
      <Card data-testid="report-totals">
        <Space size={32} wrap>
          <Statistic title={t('report.orders')} value={totals?.orders ?? 0} />
          <Statistic title={t('report.successes')} value={totals?.successes ?? 0} />
          <Statistic title={t('report.successRatio')} value={formatRatio(totals?.success_ratio)} />
          <Statistic title={t('report.faceValue')} value={formatFen(totals?.face_value_fen ?? 0)} />
          <Statistic title={t('report.spend')} value={formatFen(totals?.spend_fen ?? 0)} />
        </Space>
      </Card>
      <Card>
        <EChart option={option} label={t('report.chartLabel')} testId="report-chart" />
      </Card>
      <ListTable<SalesRow>
        listKey="report-sales"
        title={
          <span data-testid="report-total">
            {t('common.total', { count: rows.length })}
            {report.data?.truncated ? ` · ${t('report.truncated')}` : ''}
          </span>
        }
        onExport={(format) => exportSalesReport(query, format)}
        columns={columns}
        rowKey={(row) => `${row.period}|${row.product_id ?? ''}`}
        dataSource={rows}
        loading={report.isFetching}
        error={report.isError && !report.data}
        onRetry={() => void report.refetch()}
        tableTestId="report-table"
      />
    </Space>
  );
}
