import { useState } from 'react';
import { pagerChange } from './list-paging';

/**
 * Page number and size of a list paged by number, kept in the component: a list inside a
 * page (list pages keep theirs in the address, `useListPage`). A new page size starts again
 * at the first page: the old page number may not exist at the new size.
 */
export function usePageNumbers(defaultSize: number) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(defaultSize);
  const onChange = (next: number, size: number) => {
    const target = pagerChange({ page, pageSize }, next, size);
    setPage(target.page);
    setPageSize(target.pageSize);
  };
  return { page, pageSize, setPage, onChange };
}
