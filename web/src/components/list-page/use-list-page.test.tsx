import { queryOptions } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import { useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { withProviders } from '@/test/query-wrapper';
import type { FilterSchema, FilterValues } from './url-filters';
import { type CursorPage, type ListAnswer, type NumberPage, useListPage } from './use-list-page';

const SCHEMA: FilterSchema = { texts: ['state'], numbers: ['merchantId'] };

interface Query {
  state?: string;
  merchantId?: number;
}
type Request = Query & (NumberPage | CursorPage);

const toQuery = (values: FilterValues): Query => ({
  state: typeof values.state === 'string' ? values.state : undefined,
  merchantId: typeof values.merchantId === 'number' ? values.merchantId : undefined,
});

/** A fake list: every request recorded; page n answers the cursor `after-n`. */
function fakeList() {
  const requests: Request[] = [];
  const options = (query: Query, page: NumberPage | CursorPage) =>
    queryOptions({
      queryKey: ['fake', query, page],
      queryFn: (): Promise<ListAnswer<number>> => {
        requests.push({ ...query, ...page });
        const number = 'page' in page ? page.page : Number(page.cursor.split('-')[1]) + 1;
        return Promise.resolve({ list: [number], total: 95, next_cursor: `after-${number}` });
      },
    });
  return { requests, options };
}

function renderList(path: string, paging: 'numbers' | 'cursor' = 'numbers') {
  const fake = fakeList();
  const view = renderHook(
    () => {
      const location = useLocation();
      const state = useListPage(
        paging === 'cursor'
          ? { schema: SCHEMA, paging: 'cursor', toQuery, queryOptions: fake.options }
          : { schema: SCHEMA, paging: 'numbers', toQuery, queryOptions: fake.options },
      );
      return { state, search: location.search };
    },
    { wrapper: withProviders(undefined, path) },
  );
  const settled = () => waitFor(() => expect(view.result.current.state.list.isFetching).toBe(false));
  return { ...fake, view, settled };
}

describe('useListPage', () => {
  it('reads the filters from the address and asks for the first page', async () => {
    const { requests, view, settled } = renderList('/list?state=failed&merchantId=7&junk=1');
    await settled();
    const { state } = view.result.current;
    expect(state.values).toEqual({ state: 'failed', merchantId: 7 });
    expect(state.query).toEqual({ state: 'failed', merchantId: 7 });
    expect(requests).toEqual([{ state: 'failed', merchantId: 7, page: 1, page_size: 20 }]);
    expect(state.pagination).toMatchObject({ current: 1, pageSize: 20, total: 95 });
  });

  it('writes searched filters into the address, and pages without touching it', async () => {
    const { requests, view, settled } = renderList('/list');
    await settled();
    act(() => view.result.current.state.onSearch({ state: 'delivered', merchantId: 9 }));
    expect(view.result.current.search).toBe('?state=delivered&merchantId=9');
    await settled();
    act(() => view.result.current.state.pagination.onChange(4, 20));
    await settled();
    // A new size starts again at page 1, whatever page the pager was on.
    act(() => view.result.current.state.pagination.onChange(4, 50));
    await settled();
    expect(view.result.current.search).toBe('?state=delivered&merchantId=9');
    expect(requests.slice(1).map((request) => [(request as NumberPage).page, request.page_size])).toEqual([
      [1, 20],
      [4, 20],
      [1, 50],
    ]);
    act(() => view.result.current.state.onReset());
    expect(view.result.current.search).toBe('');
  });

  it('goes back to page 1 with new filters, never asking for the old page under them', async () => {
    const { requests, view, settled } = renderList('/list?state=failed');
    await settled();
    act(() => view.result.current.state.pagination.onChange(1, 50));
    await settled();
    act(() => view.result.current.state.pagination.onChange(3, 50));
    await settled();
    act(() => view.result.current.state.onSearch({ state: 'delivered', merchantId: 9 }));
    await settled();
    // The size stays, the page does not.
    expect([view.result.current.state.page, view.result.current.state.pageSize]).toEqual([1, 50]);
    expect(requests.slice(1)).toEqual([
      { state: 'failed', page: 1, page_size: 50 },
      { state: 'failed', page: 3, page_size: 50 },
      { state: 'delivered', merchantId: 9, page: 1, page_size: 50 },
    ]);
  });

  it('fetches the same page again when the same filters are searched again', async () => {
    const { requests, view, settled } = renderList('/list?state=failed');
    await settled();
    act(() => view.result.current.state.pagination.onChange(2, 20));
    await settled();
    act(() => view.result.current.state.onSearch({ state: 'failed' }));
    await waitFor(() => expect(requests).toHaveLength(3));
    expect(view.result.current.search).toBe('?state=failed');
    expect(view.result.current.state.page).toBe(2);
    expect(requests[2]).toEqual(requests[1]);
    // Reset with no filters set is a search for the same (no) filters too.
    const bare = renderList('/list');
    await bare.settled();
    act(() => bare.view.result.current.state.onReset());
    await waitFor(() => expect(bare.requests).toHaveLength(2));
  });

  it('walks a keyset list by cursor, by number where unseen, and forgets cursors with the filters', async () => {
    const { requests, view, settled } = renderList('/list?state=failed', 'cursor');
    await settled();
    act(() => view.result.current.state.pagination.onChange(2, 20));
    await settled();
    act(() => view.result.current.state.pagination.onChange(3, 20));
    await settled();
    act(() => view.result.current.state.pagination.onChange(7, 20));
    await settled();
    expect(requests.map(({ state: _, ...position }) => position)).toEqual([
      { page: 1, page_size: 20 },
      { cursor: 'after-1', page_size: 20 },
      { cursor: 'after-2', page_size: 20 },
      { page: 7, page_size: 20 },
    ]);

    act(() => view.result.current.state.onSearch({ state: 'delivered' }));
    await settled();
    act(() => view.result.current.state.pagination.onChange(2, 20));
    await settled();
    // Page 1 of the new filters answered its own cursor: page 2 follows it, not the old one.
    expect(requests.slice(4)).toEqual([
      { state: 'delivered', page: 1, page_size: 20 },
      { state: 'delivered', cursor: 'after-1', page_size: 20 },
    ]);
    // A restart (the feature's sort changed) goes back to page 1; so does a new size, by number.
    act(() => view.result.current.state.restart());
    expect(view.result.current.state.page).toBe(1);
    await settled();
    act(() => view.result.current.state.pagination.onChange(1, 50));
    await settled();
    act(() => view.result.current.state.pagination.onChange(2, 50));
    await settled();
    expect(requests.slice(-2)).toEqual([
      { state: 'delivered', page: 1, page_size: 50 },
      { state: 'delivered', cursor: 'after-1', page_size: 50 },
    ]);
  });
});
