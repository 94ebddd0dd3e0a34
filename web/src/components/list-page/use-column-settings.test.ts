import { act, renderHook } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { useUserStore } from '@/stores/user-store';
import { loadSettings, moveColumn, settingsStorageKey, toggleColumn } from './column-settings';
import { useColumnSettings } from './use-column-settings';

const KEYS = ['a', 'b', 'c'];

describe('useColumnSettings', () => {
  afterEach(() => useUserStore.getState().resetUser());

  it('saves a change for the signed-in user and shows the next user their own layout', () => {
    useUserStore.getState().setUserInfo({ username: 'alice' });
    const { result } = renderHook(() => useColumnSettings('orders-ordinary', KEYS, 'middle'));
    act(() => result.current.update((current) => ({ ...toggleColumn(current, 'b', false), density: 'small' })));
    expect(result.current.settings).toEqual({ order: KEYS, hidden: ['b'], density: 'small' });

    act(() => useUserStore.getState().setUserInfo({ username: 'bob' }));
    expect(result.current.settings).toEqual({ order: KEYS, hidden: [], density: 'middle' });

    act(() => useUserStore.getState().setUserInfo({ username: 'alice' }));
    expect(result.current.settings).toEqual({ order: KEYS, hidden: ['b'], density: 'small' });
  });

  it('resets the columns but keeps the chosen density', () => {
    useUserStore.getState().setUserInfo({ username: 'alice' });
    const { result } = renderHook(() => useColumnSettings('quotes', KEYS, 'middle'));
    act(() => result.current.update(() => ({ order: ['c', 'b', 'a'], hidden: ['a'], density: 'large' })));
    act(() => result.current.reset());
    expect(result.current.settings).toEqual({ order: KEYS, hidden: [], density: 'large' });
    const { result: again } = renderHook(() => useColumnSettings('quotes', KEYS, 'middle'));
    expect(again.current.settings).toEqual({ order: KEYS, hidden: [], density: 'large' });
  });

  it('applies two changes made before a re-render to each other, and saves both', () => {
    useUserStore.getState().setUserInfo({ username: 'carol' });
    const { result } = renderHook(() => useColumnSettings('orders-ordinary', KEYS, 'middle'));
    // Both from the same render, as two clicks in a popover that has not re-rendered yet.
    const { update } = result.current;
    act(() => {
      update((current) => toggleColumn(current, 'a', false));
      update((current) => moveColumn(current, 'c', -1));
    });
    const expected = { order: ['a', 'c', 'b'], hidden: ['a'], density: 'middle' };
    expect(result.current.settings).toEqual(expected);
    expect(loadSettings(localStorage, settingsStorageKey('carol', 'orders-ordinary'), KEYS)).toEqual(expected);
  });

  it('carries a change not yet saved over to columns changed in the same render', () => {
    useUserStore.getState().setUserInfo({ username: 'dave' });
    const { result } = renderHook(() => {
      const [keys, setKeys] = useState(KEYS);
      return { ...useColumnSettings('report-profit', keys, 'middle'), setKeys };
    });
    // A saved view applied: its density and its filters (which add a column) in one go.
    act(() => {
      result.current.update((current) => ({ ...toggleColumn(current, 'c', false), density: 'small' }));
      result.current.setKeys(['a', 'x', 'b', 'c']);
    });
    const expected = { order: ['a', 'x', 'b', 'c'], hidden: ['c'], density: 'small' };
    expect(result.current.settings).toEqual(expected);
    expect(loadSettings(localStorage, settingsStorageKey('dave', 'report-profit'), ['a', 'x', 'b', 'c'])).toEqual(
      expected,
    );
  });
});
