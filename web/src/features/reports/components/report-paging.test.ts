import { describe, expect, it } from 'vitest';
import { choosePage, initialPaging, pageOf, REPORT_PAGE_SIZE } from './report-paging';

const rows = Array.from({ length: 120 }, (_, index) => index);

describe('report paging', () => {
  it('shows the first page of an answer, a page size at a time', () => {
    const { current, shown } = pageOf(rows, {}, initialPaging());
    expect(current).toBe(1);
    expect(shown).toEqual(rows.slice(0, REPORT_PAGE_SIZE));
  });

  it('keeps the page chosen while the answer is the same, and starts a new answer at its first page', () => {
    const answer = { rows };
    const paging = choosePage(answer, initialPaging(), 3, REPORT_PAGE_SIZE);
    expect(pageOf(rows, answer, paging)).toEqual({ current: 3, shown: rows.slice(100, 120) });
    expect(pageOf(rows, { rows }, paging).current).toBe(1);
  });

  it('starts a new page size at its first page, and never shows a page past the last', () => {
    const answer = {};
    const third = choosePage(answer, initialPaging(), 3, REPORT_PAGE_SIZE);
    const bigger = choosePage(answer, third, 3, 100);
    expect(pageOf(rows, answer, bigger)).toEqual({ current: 1, shown: rows.slice(0, 100) });
    expect(pageOf(rows.slice(0, 30), answer, third)).toEqual({ current: 1, shown: rows.slice(0, 30) });
  });
});
