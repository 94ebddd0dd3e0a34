import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { positionOf, useCursorPages } from './cursor-pages';

describe('positionOf', () => {
  it('uses the previous page cursor when known, else the page number', () => {
    const cursors = new Map([
      [1, 'c1'],
      [2, 'c2'],
    ]);
    expect(positionOf(1, cursors)).toEqual({ page: 1 });
    expect(positionOf(2, cursors)).toEqual({ cursor: 'c1' });
    expect(positionOf(3, cursors)).toEqual({ cursor: 'c2' });
    expect(positionOf(9, cursors)).toEqual({ page: 9 });
  });
});

describe('useCursorPages', () => {
  it('walks forward by cursor and restarts on a new filter or page size', () => {
    const { result } = renderHook(() => useCursorPages(20));
    expect(result.current.position).toEqual({ page: 1 });
    act(() => result.current.remember(1, 'k1'));
    act(() => result.current.changePage(2, 20));
    expect(result.current.position).toEqual({ cursor: 'k1' });
    act(() => result.current.changePage(5, 20));
    expect(result.current.position).toEqual({ page: 5 });
    act(() => result.current.changePage(3, 50));
    expect(result.current.page).toBe(1);
    expect(result.current.pageSize).toBe(50);
    expect(result.current.position).toEqual({ page: 1 });
    act(() => result.current.remember(1, 'k1'));
    act(() => result.current.restart());
    act(() => result.current.changePage(2, 50));
    expect(result.current.position).toEqual({ page: 2 });
  });
});
