import { beforeEach, describe, expect, it } from 'vitest';
import {
  applySettings,
  defaultSettings,
  loadSettings,
  moveColumn,
  parseSettings,
  reconcileOrder,
  saveSettings,
  settingsStorageKey,
  toggleColumn,
} from './column-settings';

const KEYS = ['a', 'b', 'c', 'd'];

describe('column settings', () => {
  beforeEach(() => localStorage.clear());

  it('are kept per user and per list', () => {
    const alice = settingsStorageKey('alice', 'orders-ordinary');
    const bob = settingsStorageKey('bob', 'orders-ordinary');
    expect(alice).not.toBe(bob);
    expect(settingsStorageKey('alice', 'quotes')).not.toBe(alice);

    const hidden = toggleColumn(defaultSettings(KEYS), 'b', false);
    saveSettings(localStorage, alice, moveColumn(hidden, 'd', -1));
    expect(loadSettings(localStorage, alice, KEYS)).toEqual({
      order: ['a', 'b', 'd', 'c'],
      hidden: ['b'],
      density: 'middle',
    });
    // Bob has not changed anything: he sees the defaults, not Alice's layout.
    expect(loadSettings(localStorage, bob, KEYS)).toEqual(defaultSettings(KEYS));
  });

  it('keep the density', () => {
    const key = settingsStorageKey('alice', 'quotes');
    saveSettings(localStorage, key, { ...defaultSettings(KEYS), density: 'small' });
    expect(loadSettings(localStorage, key, KEYS, 'large').density).toBe('small');
    expect(loadSettings(localStorage, settingsStorageKey('bob', 'quotes'), KEYS, 'large').density).toBe('large');
  });

  it('fall back to the defaults on anything unreadable', () => {
    expect(parseSettings('not json', KEYS)).toEqual(defaultSettings(KEYS));
    expect(parseSettings('42', KEYS)).toEqual(defaultSettings(KEYS));
    expect(parseSettings('{"order":"a","hidden":[1,"zz"],"density":"huge"}', KEYS)).toEqual(defaultSettings(KEYS));
  });

  it('follow the code: columns gone are dropped, new ones appear at their default place', () => {
    expect(reconcileOrder(['c', 'gone', 'a', 'b'], ['a', 'b', 'new', 'c'])).toEqual(['c', 'a', 'b', 'new']);
    expect(reconcileOrder(['b', 'a'], ['first', 'a', 'b'])).toEqual(['first', 'b', 'a']);
    expect(reconcileOrder(['a', 'a', 'b'], ['a', 'b'])).toEqual(['a', 'b']);
    expect(parseSettings(JSON.stringify({ order: ['b', 'a'], hidden: ['gone', 'a'] }), ['a', 'b', 'c']).hidden).toEqual(
      ['a'],
    );
  });

  it('move within bounds and never hide the last visible column', () => {
    const start = defaultSettings(['a', 'b']);
    expect(moveColumn(start, 'a', -1)).toBe(start);
    expect(moveColumn(start, 'b', 1)).toBe(start);
    expect(moveColumn(start, 'b', -1).order).toEqual(['b', 'a']);
    const one = toggleColumn(start, 'a', false);
    expect(one.hidden).toEqual(['a']);
    expect(toggleColumn(one, 'b', false)).toBe(one);
    expect(toggleColumn(one, 'a', true).hidden).toEqual([]);
  });

  it('render in the user order without hidden ones, pinned columns last', () => {
    const columns = [{ key: 'a' }, { key: 'b' }, { key: 'actions', fixed: 'right' }, { key: 'c' }];
    const settings = { order: ['c', 'a', 'b'], hidden: ['a'], density: 'middle' as const };
    expect(applySettings(columns, settings, (column) => column.fixed === 'right').map((column) => column.key)).toEqual([
      'c',
      'b',
      'actions',
    ]);
  });
});

describe('columns left out by default', () => {
  const keys = ['a', 'b', 'c'];

  it('are hidden in the defaults and after a reset, and can be shown', () => {
    const defaults = defaultSettings(keys, 'middle', ['c']);
    expect(defaults).toEqual({ order: keys, hidden: ['c'], density: 'middle' });
    expect(toggleColumn(defaults, 'c', true).hidden).toEqual([]);
    expect(parseSettings(null, keys, 'middle', ['c']).hidden).toEqual(['c']);
  });

  it('keep what a person chose, and are hidden when new to stored settings', () => {
    const shown = JSON.stringify({ order: ['a', 'b', 'c'], hidden: [], density: 'small' });
    expect(parseSettings(shown, keys, 'middle', ['c']).hidden).toEqual([]);
    const older = JSON.stringify({ order: ['a', 'b'], hidden: ['b'], density: 'small' });
    expect(parseSettings(older, keys, 'middle', ['c'])).toEqual({ order: keys, hidden: ['b', 'c'], density: 'small' });
  });
});
