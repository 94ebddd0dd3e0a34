import { describe, expect, it } from 'vitest';
import { captureState, readState, viewColumns, viewSearch } from './saved-views';

const settings = { order: ['a', 'b', 'c'], hidden: ['c'], density: 'small' as const };

describe('a saved view of a list page', () => {
  it('captures the address filters, the columns, the density and the sort', () => {
    const state = captureState('status=3&range=2026-11-01T00%3A00%3A00~', settings, 'asc');
    expect(state).toEqual({
      filters: { status: '3', range: '2026-11-01T00:00:00~' },
      columns: { order: ['a', 'b', 'c'], hidden: ['c'] },
      density: 'small',
      sort: 'asc',
    });
    // A page without a sort saves none.
    expect(captureState('', settings)).not.toHaveProperty('sort');
  });

  it('reads back what it saved, through JSON as the server keeps it', () => {
    const state = captureState('status=3', settings, 'desc');
    expect(readState(JSON.parse(JSON.stringify(state)))).toEqual(state);
  });

  it('reads what it can of an old or foreign state and drops the rest', () => {
    expect(readState(null)).toEqual({ filters: {} });
    expect(readState([1, 2])).toEqual({ filters: {} });
    expect(
      readState({ filters: { status: 3, phone: '138' }, columns: { order: ['a', 1] }, density: 'huge', sort: 5 }),
    ).toEqual({ filters: { phone: '138' }, columns: { order: ['a'], hidden: [] } });
    expect(readState({ filters: ['x'], columns: 'a' })).toEqual({ filters: {} });
  });

  it('gives one address per set of filters, whatever their order', () => {
    expect(viewSearch({ filters: { status: '3', account: '138' } })).toBe('account=138&status=3');
    expect(viewSearch({ filters: { account: '138', status: '3' } })).toBe('account=138&status=3');
    expect(viewSearch({ filters: {} })).toBe('');
  });
});

describe("a view's columns applied to today's table", () => {
  const current = { order: ['a', 'b', 'c'], hidden: [], density: 'middle' as const };

  it('takes the order, the hidden columns and the density of the view', () => {
    const state = { filters: {}, columns: { order: ['c', 'a', 'b'], hidden: ['b'] }, density: 'small' as const };
    expect(viewColumns(current, state, ['a', 'b', 'c'], [])).toEqual({
      order: ['c', 'a', 'b'],
      hidden: ['b'],
      density: 'small',
    });
  });

  it('fits a view saved before the columns changed, and keeps what it does not say', () => {
    const state = { filters: {}, columns: { order: ['gone', 'b', 'a'], hidden: ['gone'] } };
    // 'c' is new since: right after the column before it by default ('b'), hidden when it is
    // hidden by default.
    expect(viewColumns(current, state, ['a', 'b', 'c'], ['c'])).toEqual({
      order: ['b', 'c', 'a'],
      hidden: ['c'],
      density: 'middle',
    });
    expect(viewColumns(current, { filters: {}, density: 'large' }, ['a', 'b', 'c'], [])).toEqual({
      ...current,
      density: 'large',
    });
  });
});
