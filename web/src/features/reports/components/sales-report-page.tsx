import { Form, Switch } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ListColumn } from '@/components/list-page/list-table';
import { usePermission } from '@/components/permission/use-permission';
import { formatFen } from '@/lib/money';
import '@/locales/report-texts';
import {
  byPeriod,
  type Dimension,
  exportSalesReport,
  formatRatio,
  type SalesQuery,
  type SalesRow,
  useSalesReport,
} from '../api/reports';
import { reportChartOption } from './report-chart-option';
import { useReportFilters } from './report-filters';
import { ReportPage } from './report-page';

/** The sales report is broken down by product only. */
const BY_PRODUCT: readonly Dimension[] = ['product'];

/**
 * The sales report (/finance/sales): a merchant's orders of a range of Beijing days by day or
 * month (and product), by status, with the face value and spend of the successes, read from
 * the server's roll-up. Merchants see their own; administrators one merchant or all.
 */
export default function SalesReportPage() {
  const { t } = useTranslation();
  const isAdmin = usePermission(['admin']);
  // A merchant's users read their own merchant's: a merchant in the address is not theirs to choose.
  const state = useReportFilters({ dimensions: BY_PRODUCT, merchant: isAdmin });
  const { filters, change } = state;
  const byProduct = filters.groupBy.includes('product');
  const query: SalesQuery = {
    start: filters.start,
    end: filters.end,
    grain: filters.grain,
    by_product: byProduct,
    merchant_id: filters.merchantId,
  };
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
    ...(byProduct
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
    <ReportPage<SalesRow>
      testId="sales-report-page"
      title={t('menu.finance.salesReport')}
      hint={t('report.salesHint')}
      listKey="report-sales"
      savedViews={state}
      breakdown={
        <Form.Item label={t('report.byProduct')}>
          <Switch
            checked={byProduct}
            onChange={(checked) => change({ ...filters, groupBy: checked ? ['product'] : [] })}
            data-testid="report-by-product"
            aria-label={t('report.byProduct')}
          />
        </Form.Item>
      }
      report={report}
      figures={[
        { title: t('report.orders'), value: totals?.orders ?? 0 },
        { title: t('report.successes'), value: totals?.successes ?? 0 },
        { title: t('report.successRatio'), value: formatRatio(totals?.success_ratio) },
        { title: t('report.faceValue'), value: formatFen(totals?.face_value_fen ?? 0) },
        { title: t('report.spend'), value: formatFen(totals?.spend_fen ?? 0) },
      ]}
      chart={option}
      columns={columns}
      rowKey={(row) => `${row.period}|${row.product_id ?? ''}`}
      onExport={(format) => exportSalesReport(query, format)}
    />
  );
}
