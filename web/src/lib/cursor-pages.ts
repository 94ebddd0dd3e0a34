/**
 * Keyset ("cursor") pagination with page numbers: page n+1 starts at the next_cursor of page
 * n when that page was seen, which is fast at any depth; a jump to an unseen page falls back
 * to the API's page number. The cursors belong to one filter and sort: restart on change.
 */
import { useCallback, useState } from 'react';

/** Where a page of the list starts: a keyset cursor when known, else a page number. */
export type PagePosition = { cursor: string } | { page: number };

/**
 * The position of page `target` (1-based) given the cursors seen so far: `cursors[n]` is the
 * next_cursor returned by page n. Page 1 and pages whose cursor is unknown use `page`.
 */
export function positionOf(target: number, cursors: ReadonlyMap<number, string>): PagePosition {
  const cursor = target > 1 ? cursors.get(target - 1) : undefined;
  return cursor ? { cursor } : { page: target };
}

export function useCursorPages(initialPageSize = 20) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSizeState] = useState(initialPageSize);
  const [cursors, setCursors] = useState<Map<number, string>>(() => new Map());

  const restart = useCallback(() => {
    setPage(1);
    setCursors(new Map());
  }, []);

  /** Remember the next_cursor a loaded page returned. */
  const remember = useCallback((loadedPage: number, nextCursor: string | null | undefined) => {
    if (!nextCursor) return;
    setCursors((current) => {
      if (current.get(loadedPage) === nextCursor) return current;
      const next = new Map(current);
      next.set(loadedPage, nextCursor);
      return next;
    });
  }, []);

  const changePage = useCallback(
    (nextPage: number, nextSize: number) => {
      if (nextSize !== pageSize) {
        setPageSizeState(nextSize);
        restart();
      } else setPage(nextPage);
    },
    [pageSize, restart],
  );

  return { page, pageSize, cursors, position: positionOf(page, cursors), restart, remember, changePage };
}
