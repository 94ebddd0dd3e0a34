/** A list's page number and size. */
export interface PageNumbers {
  page: number;
  pageSize: number;
}

/**
 * Where the pager goes: a new page size starts again at page 1 (the old page number may not
 * exist at the new size).
 */
export function pagerChange(current: PageNumbers, page: number, pageSize: number): PageNumbers {
  return pageSize !== current.pageSize ? { page: 1, pageSize } : { page, pageSize };
}
