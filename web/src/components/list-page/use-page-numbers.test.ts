import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { usePageNumbers } from './use-page-numbers';

describe('usePageNumbers', () => {
  it('moves between pages and starts again at page 1 when the size changes', () => {
    const { result } = renderHook(() => usePageNumbers(20));
    expect([result.current.page, result.current.pageSize]).toEqual([1, 20]);
    act(() => result.current.onChange(3, 20));
    expect([result.current.page, result.current.pageSize]).toEqual([3, 20]);
    act(() => result.current.onChange(3, 50));
    expect([result.current.page, result.current.pageSize]).toEqual([1, 50]);
  });
});
