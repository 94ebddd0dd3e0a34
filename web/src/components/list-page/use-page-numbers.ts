import { useState } from 'react';

/**
 * Page number and size of a list paged by number (the kit's pager). A new page size starts
 * again at the first page: the old page number may not exist at the new size.
 */
export function usePageNumbers(defaultSize: number) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(defaultSize);
  const onChange = (next: number, size: number) => {
    setPage(size !== pageSize ? 1 : next);
    setPageSize(size);
  };
  return { page, pageSize, setPage, onChange };
}
