import { type QueryKey, type UseQueryOptions, type UseQueryResult, useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { type PagePosition, positionOf } from '@/lib/cursor-pages';
import type { ListPagination } from './list-table';
import { type PageNumbers, pagerChange } from './list-paging';
import { type FilterSchema, type FilterValues, paramsToValues } from './url-filters';
import { useOnChange, useUrlFilters } from './use-url-filters';

/** One page of a list as the API answers it. */
export interface ListAnswer<T> {
  list: T[];
  total: number;
  /** The server stopped counting at its cap: the heading says "more than". */
  total_capped?: boolean;
  /** Keyset-paged lists: where the page after this one starts. */
  next_cursor?: string | null;
}

/** The page asked of a list paged by number. */
export interface NumberPage {
  page: number;
  page_size: number;
}

/** The page asked of a keyset-paged list: a cursor when the page before was seen, else its number. */
export type CursorPage = PagePosition & { page_size: number };

interface CommonOptions<Q> {
  /** The filters kept in the address (a module constant); none for a list without filters. */
  schema?: FilterSchema;
  /** Address values → the list's query (also what the export is given). */
  toQuery: (values: FilterValues) => Q;
  defaultPageSize?: number;
  /** Also run when the filters change (say, forget the rows a person had ticked). */
  onFiltersChange?: () => void;
}

/** A list paged by number: the feature's TanStack Query options for one page. */
export interface NumberListOptions<Q, A, K extends QueryKey> extends CommonOptions<Q> {
  paging: 'numbers';
  queryOptions: (query: Q, page: NumberPage) => UseQueryOptions<A, Error, A, K>;
}

/**
 * A keyset-paged list (fast at any depth): page n+1 starts at the cursor page n answered,
 * when it was seen; a jump to an unseen page (or a reload on page 5) asks by number.
 */
export interface CursorListOptions<Q, A, K extends QueryKey> extends CommonOptions<Q> {
  paging: 'cursor';
  queryOptions: (query: Q, page: CursorPage) => UseQueryOptions<A, Error, A, K>;
}

export type ListPageOptions<Q, A, K extends QueryKey> = NumberListOptions<Q, A, K> | CursorListOptions<Q, A, K>;

export interface ListPageState<Q, A> {
  /** The applied filters (from the address). */
  values: FilterValues;
  query: Q;
  list: UseQueryResult<A, Error>;
  page: number;
  pageSize: number;
  /** The address's query as it is (what a saved view keeps of the filters). */
  search: string;
  /** Apply the filters; the same filters again fetch the list again. */
  onSearch: (values: FilterValues) => void;
  /** Apply filters given as address parameters (a saved view's); unknown keys are ignored. */
  applyParams: (params: Record<string, string>) => void;
  onReset: () => void;
  /** Back to page 1 with no cursor (the feature changed what the cursors are about: the sort). */
  restart: () => void;
  pagination: Omit<ListPagination, 'testId'>;
}

const NO_FILTERS: FilterSchema = {};

/**
 * A list page's state: the filters, kept in the page address (`useUrlFilters`), the page and
 * its size, kept by the page (its tab keeps them; new filters start again at page 1, in the
 * render they change, so no request goes out for the old page under the new filters), and
 * the page's query.
 */
export function useListPage<Q, A extends ListAnswer<unknown>, K extends QueryKey>(
  options: ListPageOptions<Q, A, K>,
): ListPageState<Q, A> {
  const schema = options.schema ?? NO_FILTERS;
  const { values, apply, search } = useUrlFilters(schema);
  const [paging, setPaging] = useState<PageNumbers>(() => ({ page: 1, pageSize: options.defaultPageSize ?? 20 }));
  const { page, pageSize } = paging;
  // Cursors belong to one filter, sort and page size: forgotten when any changes.
  const [cursors, setCursors] = useState<ReadonlyMap<number, string>>(() => new Map());
  const { onFiltersChange } = options;
  useOnChange(search, () => {
    setPaging((current) => ({ ...current, page: 1 }));
    setCursors(new Map());
    onFiltersChange?.();
  });

  const query = options.toQuery(values);
  const list = useQuery(
    options.paging === 'cursor'
      ? options.queryOptions(query, { ...positionOf(page, cursors), page_size: pageSize })
      : options.queryOptions(query, { page, page_size: pageSize }),
  );
  const data = list.data;
  // Remember where the next page starts, in the render the page arrives (as useOnChange does):
  // a placeholder is the previous page's answer, not this one's.
  const next = options.paging === 'cursor' && !list.isPlaceholderData ? data?.next_cursor : undefined;
  if (next && cursors.get(page) !== next) {
    setCursors((current) => (current.get(page) === next ? current : new Map(current).set(page, next)));
  }

  const { refetch } = list;
  const onSearch = useCallback(
    (filters: FilterValues) => {
      if (!apply(filters)) void refetch();
    },
    [apply, refetch],
  );
  return {
    values,
    query,
    list,
    page,
    pageSize,
    search,
    onSearch,
    applyParams: (params) => onSearch(paramsToValues(new URLSearchParams(params), schema)),
    onReset: () => onSearch({}),
    restart: () => {
      setPaging({ page: 1, pageSize });
      setCursors(new Map());
    },
    pagination: {
      current: page,
      pageSize,
      total: data?.total ?? 0,
      onChange: (nextPage, nextSize) => {
        if (nextSize !== pageSize) setCursors(new Map());
        setPaging(pagerChange(paging, nextPage, nextSize));
      },
    },
  };
}
