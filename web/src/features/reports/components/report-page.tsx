import type { UseQueryResult } from '@tanstack/react-query';
import { Card, Form, Space, Statistic, Typography } from 'antd';
import { type Key, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart, type EChartOption } from '@/components/echart/echart';
import type { ExportFormat } from '@/components/export-buttons/export-buttons';
import { HeldListTable, type ListColumn } from '@/components/list-page/list-table';
import { ListViewsMenu } from '@/components/list-page/list-views-menu';
import { useTableSettings } from '@/components/list-page/use-table-settings';
import { MerchantSelect } from '@/components/merchant-select/merchant-select';
import type { ReportFilterState } from './report-filters';
import { choosePage, initialPaging, pageOf, REPORT_PAGE_SIZES } from './report-paging';
import { ReportRangeFields } from './report-range';

/** One figure of the totals card. */
export interface ReportFigure {
  title: string;
  value: number | string;
}

export interface ReportPageProps<T> {
  testId: string;
  title: string;
  hint: string;
  /** Names the table's column settings and saved views (a page the server keeps views of). */
  listKey: string;
  /** The report's filters (the merchant's field when they say so), kept and applied by its saved views. */
  savedViews: ReportFilterState;
  /** The report's breakdown field, after the range and grain. */
  breakdown: ReactNode;
  report: UseQueryResult<{ rows: T[]; truncated: boolean }>;
  figures: ReportFigure[];
  chart: EChartOption;
  columns: ListColumn<T>[];
  rowKey: (row: T) => Key;
  onExport: (format: ExportFormat) => Promise<void>;
}

/**
 * A report page: the filter card (range and grain, the report's breakdown, the merchant, and
 * the saved-views menu), the totals, the chart per period and the table, as both reports
 * show them.
 */
export function ReportPage<T extends object>(props: ReportPageProps<T>) {
  const { t } = useTranslation();
  const { filters, change, search, applyView, merchant } = props.savedViews;
  // Held here rather than by the table: a saved view reads and applies them with the filters.
  const held = useTableSettings(props.listKey, props.columns);
  const { report } = props;
  const rows = report.data?.rows ?? [];
  const [paging, setPaging] = useState(initialPaging);
  const { current, shown } = pageOf(rows, report.data, paging);
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid={props.testId}>
      <Card
        title={props.title}
        extra={<ListViewsMenu listKey={props.listKey} held={held} search={search} applyFilters={applyView} />}
      >
        <Form layout="inline">
          <ReportRangeFields value={filters} onChange={(range) => change({ ...filters, ...range })} />
          {props.breakdown}
          {merchant ? (
            <Form.Item label={t('report.merchantId')}>
              <MerchantSelect
                value={filters.merchantId ?? null}
                onChange={(merchantId) => change({ ...filters, merchantId })}
                placeholder={t('report.allMerchants')}
                width={200}
                testId="report-merchant"
                ariaLabel={t('report.merchantId')}
              />
            </Form.Item>
          ) : null}
        </Form>
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          {props.hint}
        </Typography.Paragraph>
      </Card>
      <Card data-testid="report-totals">
        <Space size={32} wrap>
          {props.figures.map((figure) => (
            <Statistic key={figure.title} title={figure.title} value={figure.value} />
          ))}
        </Space>
      </Card>
      <Card>
        <EChart option={props.chart} label={t('report.chartLabel')} testId="report-chart" />
      </Card>
      <HeldListTable<T>
        listKey={props.listKey}
        held={held}
        title={
          <span data-testid="report-total">
            {t('common.total', { count: rows.length })}
            {report.data?.truncated ? ` · ${t('report.truncated')}` : ''}
          </span>
        }
        onExport={props.onExport}
        columns={props.columns}
        rowKey={props.rowKey}
        dataSource={shown}
        pagination={{
          current,
          pageSize: paging.pageSize,
          total: rows.length,
          pageSizeOptions: REPORT_PAGE_SIZES,
          onChange: (page, pageSize) => setPaging(choosePage(report.data, paging, page, pageSize)),
          testId: 'report-pagination',
        }}
        loading={report.isFetching}
        error={report.isError && !report.data}
        onRetry={() => void report.refetch()}
        tableTestId="report-table"
      />
    </Space>
  );
}
