/**
 * Keyset ("cursor") pagination with page numbers: page n+1 starts at the next_cursor of page
 * n when that page was seen, which is fast at any depth; a jump to an unseen page falls back
 * to the API's page number. The cursors belong to one filter and sort: the list pages'
 * `useListPage` (components/list-page) keeps them and forgets them on change.
 */

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
