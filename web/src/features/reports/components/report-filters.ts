/**
 * A report's filters live in the page address, as a list's do
 * (`#/finance/profit?range=2026-11-01~2026-11-30&grain=month&groupBy=merchant,channel&merchantId=10001`):
 * a reload, the back button and a shared link keep them, and a saved view keeps and applies
 * them. The address holds only what differs from the defaults (the last 30 days, by day, no
 * breakdown, every merchant), so a bare address, and a view saved with the default range,
 * always mean the last 30 days. A value the address gets wrong falls back to that field's
 * default: never an error, never a request the server refuses.
 */
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo } from 'react';
import { type FilterSchema, type FilterValues, paramsToValues } from '@/components/list-page/url-filters';
import { useUrlFilters } from '@/components/list-page/use-url-filters';
import { DIMENSIONS, type Dimension, type ReportRange } from '../api/reports';

/** The longest range a report covers, in days (the server refuses more). */
export const MAX_DAYS = 366;

/** The last 30 Beijing days, today included: what a report opens with. */
export function lastThirtyDays(today: Dayjs = dayjs()): ReportRange {
  return { start: today.subtract(29, 'day').format('YYYY-MM-DD'), end: today.format('YYYY-MM-DD'), grain: 'day' };
}

export const REPORT_SCHEMA: FilterSchema = { texts: ['range', 'grain', 'groupBy'], numbers: ['merchantId'] };

/** What both reports are asked for: the range and grain, the breakdown, one merchant or all. */
export interface ReportFilters extends ReportRange {
  /** In the server's order (`DIMENSIONS`), each once. */
  groupBy: Dimension[];
  merchantId?: number;
}

/** What a report offers: its breakdowns, and whether the person chooses the merchant. */
export interface ReportRules {
  dimensions: readonly Dimension[];
  merchant: boolean;
}

const DAY = 'YYYY-MM-DD';

function readDay(text: string): Dayjs | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const day = dayjs(text);
  // 2026-02-30 would roll over into March: not a day.
  return day.isValid() && day.format(DAY) === text ? day : null;
}

/** `start~end`: two days, the end not before the start, at most MAX_DAYS of them. */
function readRange(text: string): Pick<ReportRange, 'start' | 'end'> | null {
  const parts = text.split('~');
  if (parts.length !== 2) return null;
  const [start, end] = parts.map(readDay);
  if (!start || !end) return null;
  const days = end.diff(start, 'day') + 1;
  return days >= 1 && days <= MAX_DAYS ? { start: start.format(DAY), end: end.format(DAY) } : null;
}

/** Names the report offers, in the server's order; one it does not offer voids the field. */
function readGroupBy(text: string, offered: readonly Dimension[]): Dimension[] {
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.some((name) => !offered.includes(name as Dimension))) return [];
  return DIMENSIONS.filter((dimension) => names.includes(dimension));
}

/** The address's values as the report's filters, each wrong one replaced by its default. */
export function readReportFilters(values: FilterValues, rules: ReportRules, today: Dayjs = dayjs()): ReportFilters {
  const text = (key: string) => {
    const value = values[key];
    return typeof value === 'string' ? value : '';
  };
  const standard = lastThirtyDays(today);
  const merchantId = values.merchantId;
  return {
    ...(readRange(text('range')) ?? standard),
    grain: text('grain') === 'month' ? 'month' : 'day',
    groupBy: readGroupBy(text('groupBy'), rules.dimensions),
    ...(rules.merchant && typeof merchantId === 'number' && merchantId > 0 ? { merchantId } : {}),
  };
}

/** The filters as address values: only what differs from the defaults. */
export function reportValues(filters: ReportFilters, today: Dayjs = dayjs()): FilterValues {
  const standard = lastThirtyDays(today);
  const values: FilterValues = {};
  if (filters.start !== standard.start || filters.end !== standard.end) {
    values.range = `${filters.start}~${filters.end}`;
  }
  if (filters.grain !== 'day') values.grain = filters.grain;
  if (filters.groupBy.length) values.groupBy = DIMENSIONS.filter((name) => filters.groupBy.includes(name)).join(',');
  if (filters.merchantId) values.merchantId = filters.merchantId;
  return values;
}

/** The filters now and how to change them. */
export interface ReportFilterState {
  filters: ReportFilters;
  change: (next: ReportFilters) => void;
  /** The address's query as it is, which a saved view keeps. */
  search: string;
  /** Apply a saved view's filters (address parameters), read as the address is. */
  applyView: (params: Record<string, string>) => void;
  /** The merchant is the person's to choose (the report shows the field). */
  merchant: boolean;
}

/**
 * The report's filters from the address. Each change is a step in the browser's history (the
 * back button returns to the filters before); a saved view applied to the bare address (the
 * default view, as the page opens) takes its place instead, so back leaves the report.
 */
export function useReportFilters(rules: ReportRules): ReportFilterState {
  const { values, apply, search } = useUrlFilters(REPORT_SCHEMA);
  const { dimensions, merchant } = rules;
  const filters = useMemo(() => readReportFilters(values, { dimensions, merchant }), [values, dimensions, merchant]);
  const change = (next: ReportFilters, push = true) => apply(reportValues(next), { push });
  return {
    filters,
    search,
    change: (next: ReportFilters) => void change(next),
    applyView: (params: Record<string, string>) =>
      void change(
        readReportFilters(paramsToValues(new URLSearchParams(params), REPORT_SCHEMA), { dimensions, merchant }),
        search !== '',
      ),
    merchant,
  };
}
