import { describe, expect, it } from 'vitest';
import { actionCells, cellsPerRow, collapsedCount } from './filter-layout';

describe('collapsed filter layout', () => {
  it('counts fields per row by screen width', () => {
    expect(cellsPerRow({ xs: true })).toBe(1);
    expect(cellsPerRow({ xs: true, sm: true, md: true })).toBe(2);
    expect(cellsPerRow({ sm: true, md: true, lg: true })).toBe(3);
    expect(cellsPerRow({ sm: true, md: true, lg: true, xl: true })).toBe(4);
  });

  it('shows what fits in the first row beside the buttons, at least one field', () => {
    // The order list: a two-cell date range, then single fields.
    const widths = [2, 1, 1, 1, 1, 1];
    expect(collapsedCount(widths, 4)).toBe(2);
    expect(collapsedCount(widths, 3)).toBe(1);
    expect(collapsedCount(widths, 1)).toBe(1);
    expect(collapsedCount([1, 1, 1, 1, 1], 4)).toBe(3);
    expect(collapsedCount([], 4)).toBe(0);
  });

  it('gives the buttons the rest of the last row, or a row of their own', () => {
    expect(actionCells([2, 1], 4)).toBe(1);
    expect(actionCells([1, 1, 1, 1], 4)).toBe(4);
    expect(actionCells([1, 1, 1, 1, 1], 4)).toBe(3);
    expect(actionCells([2], 3)).toBe(1);
    expect(actionCells([1, 2], 2)).toBe(2);
    expect(actionCells([2], 1)).toBe(1);
  });
});
