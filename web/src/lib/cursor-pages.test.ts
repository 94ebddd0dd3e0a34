import { describe, expect, it } from 'vitest';
import { positionOf } from './cursor-pages';

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
