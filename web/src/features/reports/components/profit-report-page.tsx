import { Checkbox, Form } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ListColumn } from '@/components/list-page/list-table';
import { formatFen } from '@/lib/money';
import '@/locales/report-texts';
import {
  byPeriod,
  DIMENSIONS,
  type Dimension,
  exportProfitReport,
  formatRatio,
  type ProfitQuery,
  type ProfitRow,
  useProfitReport,
} from '../api/reports';
import { reportChartOption } from './report-chart-option';
import { useReportFilters } from './report-filters';
import { ReportPage } from './report-page';

/** The profit report is broken down by any dimension; the merchant is the administrator's choice. */
const RULES = { dimensions: DIMENSIONS, merchant: true };

const CARRIERS: Record<number, string> = { 1: 'mobile', 2: 'unicom', 3: 'telecom' };

/** The row's key: its period and the dimensions it is broken down by. */
const rowKey = (row: ProfitRow) =>
  [row.period, row.merchant_id, row.channel_id, row.carrier, row.province, row.product_id].join('|');

/**
 * The profit report (/finance/profit, administrators): orders, face value, sales, cost and
 * profit of a range of Beijing days by day or month, broken down as chosen, read from the
 * server's roll-up. A chart of sales, cost and profit per period above the table.
 */
export default function ProfitReportPage() {
  const { t, i18n } = useTranslation();
  const state = useReportFilters(RULES);
  const { filters, change } = state;
  const query: ProfitQuery = {
    start: filters.start,
    end: filters.end,
    grain: filters.grain,
    group_by: filters.groupBy,
    merchant_id: filters.merchantId,
  };
  const report = useProfitReport(query);
  const rows = useMemo(() => report.data?.rows ?? [], [report.data]);
  const english = i18n.language === 'en-US';

  const option = useMemo(() => {
    const { periods, series } = byPeriod(rows, (row) => [row.sales_fen, row.cost_fen, row.profit_fen]);
    return reportChartOption(periods, [
      { name: t('report.sales'), data: series[0] ?? [], kind: 'bar', color: '#165dff', money: true },
      { name: t('report.cost'), data: series[1] ?? [], kind: 'bar', color: '#f7ba1e', money: true },
      { name: t('report.profit'), data: series[2] ?? [], kind: 'line', color: '#00b42a', money: true },
    ]);
  }, [rows, t]);

  const shown = (dimension: Dimension) => filters.groupBy.includes(dimension);
  const money = (key: keyof ProfitRow & string, title: string): ListColumn<ProfitRow> => ({
    key,
    title,
    align: 'right',
    render: (_: unknown, row: ProfitRow) => formatFen(row[key] as number),
  });
  const columns: ListColumn<ProfitRow>[] = [
    { key: 'period', title: t('report.period'), dataIndex: 'period', phone: true, phoneWidth: 100 },
    ...(shown('merchant')
      ? [
          {
            key: 'merchant',
            title: t('report.merchant'),
            render: (_: unknown, row: ProfitRow) => `${row.merchant_name ?? ''} (${row.merchant_id})`,
          },
        ]
      : []),
    ...(shown('channel')
      ? [
          {
            key: 'channel',
            title: t('report.channel'),
            render: (_: unknown, row: ProfitRow) => row.channel_name || t('report.noChannel'),
          },
        ]
      : []),
    ...(shown('carrier')
      ? [
          {
            key: 'carrier',
            title: t('report.carrier'),
            render: (_: unknown, row: ProfitRow) =>
              row.carrier ? t(`common.carrier.${CARRIERS[row.carrier] ?? 'mobile'}`) : '',
          },
        ]
      : []),
    ...(shown('province')
      ? [
          {
            key: 'province',
            title: t('report.province'),
            render: (_: unknown, row: ProfitRow) =>
              (english ? row.province_en : row.province) || t('report.provinceUnknown'),
          },
        ]
      : []),
    ...(shown('product')
      ? [{ key: 'product', title: t('report.product'), render: (_: unknown, row: ProfitRow) => row.product_name }]
      : []),
    { key: 'orders', title: t('report.orders'), dataIndex: 'orders', align: 'right' },
    { key: 'successes', title: t('report.successes'), dataIndex: 'successes', align: 'right' },
    {
      key: 'success_ratio',
      title: t('report.successRatio'),
      align: 'right',
      phone: true,
      phoneWidth: 80,
      render: (_: unknown, row: ProfitRow) => formatRatio(row.success_ratio),
    },
    money('face_value_fen', t('report.faceValue')),
    money('sales_fen', t('report.sales')),
    money('cost_fen', t('report.cost')),
    { ...money('profit_fen', t('report.profit')), phone: true, phoneWidth: 100 },
  ];

  const totals = report.data?.totals;
  return (
    <ReportPage<ProfitRow>
      testId="profit-report-page"
      title={t('menu.finance.profitReport')}
      hint={t('report.profitHint')}
      listKey="report-profit"
      savedViews={state}
      breakdown={
        <Form.Item label={t('report.groupBy')}>
          <Checkbox.Group
            value={filters.groupBy}
            // Kept in the server's order, so the same choice is the same query.
            onChange={(values) =>
              change({ ...filters, groupBy: DIMENSIONS.filter((dimension) => values.includes(dimension)) })
            }
            options={DIMENSIONS.map((dimension) => ({ value: dimension, label: t(`report.${dimension}`) }))}
            data-testid="report-group-by"
          />
        </Form.Item>
      }
      report={report}
      figures={[
        { title: t('report.orders'), value: totals?.orders ?? 0 },
        { title: t('report.successRatio'), value: formatRatio(totals?.success_ratio) },
        { title: t('report.faceValue'), value: formatFen(totals?.face_value_fen ?? 0) },
        { title: t('report.sales'), value: formatFen(totals?.sales_fen ?? 0) },
        { title: t('report.cost'), value: formatFen(totals?.cost_fen ?? 0) },
        { title: t('report.profit'), value: formatFen(totals?.profit_fen ?? 0) },
      ]}
      chart={option}
      columns={columns}
      rowKey={rowKey}
      onExport={(format) => exportProfitReport(query, format)}
    />
  );
}
