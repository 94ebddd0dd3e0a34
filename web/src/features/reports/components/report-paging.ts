/**
 * The report table's pages, in the browser: a report answers up to 10,000 rows at once (its
 * totals and chart need them all), and the table shows them a page at a time instead of
 * rendering every row. A new answer (other filters, another breakdown) starts at its first
 * page; the same answer fetched again keeps the page (TanStack Query keeps its identity).
 */
export interface ReportPaging {
  /** The answer the page was chosen in. */
  of: unknown;
  current: number;
  pageSize: number;
}

export const REPORT_PAGE_SIZES = [20, 50, 100, 500];
export const REPORT_PAGE_SIZE = 50;

export function initialPaging(): ReportPaging {
  return { of: undefined, current: 1, pageSize: REPORT_PAGE_SIZE };
}

/** The page shown of these rows, for this answer: the one chosen in it, else the first. */
export function pageOf<T>(rows: T[], answer: unknown, paging: ReportPaging): { current: number; shown: T[] } {
  const last = Math.max(1, Math.ceil(rows.length / paging.pageSize));
  const current = paging.of === answer ? Math.min(paging.current, last) : 1;
  return { current, shown: rows.slice((current - 1) * paging.pageSize, current * paging.pageSize) };
}

/** A page (or page size) chosen in this answer; a new size starts at its first page. */
export function choosePage(answer: unknown, paging: ReportPaging, page: number, pageSize: number): ReportPaging {
  return { of: answer, current: pageSize === paging.pageSize ? page : 1, pageSize };
}
