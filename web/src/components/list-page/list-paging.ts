/**
 * A list's page number and size in the page address (`…?status=3&page=2&page_size=50`): a
 * reload, a tab or a shared link opens the same page. Page 1 and the list's default size are
 * left out, so an address that names only filters stays as it was. Anything unreadable in a
 * hand-edited address is the default, never an error.
 */

export const PAGE_PARAM = 'page';
export const PAGE_SIZE_PARAM = 'page_size';

/** The sizes the pager offers; a list's default size is accepted too. */
export const PAGE_SIZES: readonly number[] = [10, 20, 50, 100];

export interface PageNumbers {
  page: number;
  pageSize: number;
}

/** Page and size read from the address. */
export function readPaging(params: URLSearchParams, defaultSize: number): PageNumbers {
  const page = Number(params.get(PAGE_PARAM));
  const size = Number(params.get(PAGE_SIZE_PARAM));
  return {
    page: Number.isSafeInteger(page) && page > 1 ? page : 1,
    // Only sizes the pager offers: a hand-typed 100000 would be refused by the server.
    pageSize: size === defaultSize || PAGE_SIZES.includes(size) ? size : defaultSize,
  };
}

/** The address's parameters with this page and size written (defaults left out); others kept. */
export function writePaging(params: URLSearchParams, paging: PageNumbers, defaultSize: number): URLSearchParams {
  const next = new URLSearchParams(params);
  if (paging.page > 1) next.set(PAGE_PARAM, String(paging.page));
  else next.delete(PAGE_PARAM);
  if (paging.pageSize !== defaultSize) next.set(PAGE_SIZE_PARAM, String(paging.pageSize));
  else next.delete(PAGE_SIZE_PARAM);
  return next;
}

/**
 * Where the pager goes: a new page size starts again at page 1 (the old page number may not
 * exist at the new size).
 */
export function pagerChange(current: PageNumbers, page: number, pageSize: number): PageNumbers {
  return pageSize !== current.pageSize ? { page: 1, pageSize } : { page, pageSize };
}
