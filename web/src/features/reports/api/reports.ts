import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ExportFormat } from '@/components/export-buttons/export-buttons';
import { downloadFile, stampedFileName } from '@/lib/download';
import { type ApiSchema, post } from '@/lib/request';

export const PROFIT_URL = '/adminapi/admin/report/profit';
export const PROFIT_EXPORT_URL = '/adminapi/admin/report/profit/export';
export const SALES_URL = '/adminapi/report/sales';
export const SALES_EXPORT_URL = '/adminapi/report/sales/export';

export type ProfitReport = ApiSchema<'Report'>;
export type ProfitRow = ApiSchema<'ReportRow'>;
export type SalesReport = ApiSchema<'SalesReport'>;
export type SalesRow = ApiSchema<'SalesRow'>;
export type Grain = 'day' | 'month';
/** What the profit report may be broken down by, besides its period. */
export const DIMENSIONS = ['merchant', 'channel', 'carrier', 'province', 'product'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** The range and grain every report takes: Beijing days, both included, at most 366. */
export interface ReportRange {
  start: string;
  end: string;
  grain: Grain;
}

export interface ProfitQuery extends ReportRange {
  group_by: Dimension[];
  merchant_id?: number;
}

export interface SalesQuery extends ReportRange {
  by_product: boolean;
  /** Administrators: one merchant, or every merchant when absent. Merchants: absent. */
  merchant_id?: number;
}

/** The request's fields: the breakdown as the comma-separated list the server reads. */
export function profitParams(query: ProfitQuery) {
  const { group_by, merchant_id, ...range } = query;
  return { ...range, group_by: group_by.join(','), ...(merchant_id ? { merchant_id } : {}) };
}

export function salesParams(query: SalesQuery) {
  const { by_product, merchant_id, ...range } = query;
  return { ...range, group_by: by_product ? 'product' : '', ...(merchant_id ? { merchant_id } : {}) };
}

/** POST /adminapi/admin/report/profit (administrators). */
export function getProfitReport(query: ProfitQuery): Promise<ProfitReport> {
  return post(PROFIT_URL, profitParams(query));
}

export const profitReportQueryOptions = (query: ProfitQuery) =>
  queryOptions({ queryKey: ['report', 'profit', query], queryFn: () => getProfitReport(query) });

export function useProfitReport(query: ProfitQuery) {
  return useQuery(profitReportQueryOptions(query));
}

/** POST /adminapi/report/sales: a merchant's own; an administrator's choice. */
export function getSalesReport(query: SalesQuery): Promise<SalesReport> {
  return post(SALES_URL, salesParams(query));
}

export const salesReportQueryOptions = (query: SalesQuery) =>
  queryOptions({ queryKey: ['report', 'sales', query], queryFn: () => getSalesReport(query) });

export function useSalesReport(query: SalesQuery) {
  return useQuery(salesReportQueryOptions(query));
}

export function exportProfitReport(query: ProfitQuery, format: ExportFormat): Promise<void> {
  const name = stampedFileName(`profit-${query.start}-${query.end}`, format);
  return downloadFile(PROFIT_EXPORT_URL, { ...profitParams(query), format }, name);
}

export function exportSalesReport(query: SalesQuery, format: ExportFormat): Promise<void> {
  const name = stampedFileName(`sales-${query.start}-${query.end}`, format);
  return downloadFile(SALES_EXPORT_URL, { ...salesParams(query), format }, name);
}

/** A ratio of 0..1 as a percentage with one decimal; "—" when nothing finished. */
export function formatRatio(ratio: number | null | undefined): string {
  return ratio === null || ratio === undefined ? '—' : `${(ratio * 100).toFixed(1)}%`;
}

/**
 * The chart's series: per period, summed over the rows' other dimensions (a breakdown by
 * product has several rows per day), in the rows' order (by period).
 */
export function byPeriod<T extends { period: string }>(rows: readonly T[], pick: (row: T) => number[]) {
  const periods: string[] = [];
  const sums = new Map<string, number[]>();
  for (const row of rows) {
    const values = pick(row);
    const sum = sums.get(row.period);
    if (sum) {
      values.forEach((value, index) => (sum[index] += value));
    } else {
      periods.push(row.period);
      sums.set(row.period, [...values]);
    }
  }
  return { periods, series: values(periods, sums) };
}

function values(periods: string[], sums: Map<string, number[]>): number[][] {
  const width = periods.length ? (sums.get(periods[0])?.length ?? 0) : 0;
  return Array.from({ length: width }, (_, index) => periods.map((period) => sums.get(period)?.[index] ?? 0));
}
