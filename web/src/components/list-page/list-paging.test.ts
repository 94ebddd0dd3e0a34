import { describe, expect, it } from 'vitest';
import { readPaging, writePaging } from './list-paging';

describe('paging in the address', () => {
  it('reads page and size, taking the defaults for anything a hand-edited address gets wrong', () => {
    expect(readPaging(new URLSearchParams('page=3&page_size=50'), 20)).toEqual({ page: 3, pageSize: 50 });
    expect(readPaging(new URLSearchParams('page=0&page_size=100000'), 20)).toEqual({ page: 1, pageSize: 20 });
    expect(readPaging(new URLSearchParams('page=2.5&page_size=abc'), 10)).toEqual({ page: 1, pageSize: 10 });
    expect(readPaging(new URLSearchParams('page=-4&page_size=30'), 30)).toEqual({ page: 1, pageSize: 30 });
  });

  it('writes them beside the filters, leaving page 1 and the default size out', () => {
    const filters = new URLSearchParams('status=3&page=4&page_size=50');
    expect(writePaging(filters, { page: 2, pageSize: 50 }, 20).toString()).toBe('status=3&page=2&page_size=50');
    expect(writePaging(filters, { page: 1, pageSize: 20 }, 20).toString()).toBe('status=3');
    expect(filters.toString()).toBe('status=3&page=4&page_size=50');
  });
});
