import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useUserStore } from '@/stores/user-store';
import { toggleColumn } from './column-settings';
import { useColumnSettings } from './use-column-settings';

const KEYS = ['a', 'b', 'c'];

describe('useColumnSettings', () => {
  afterEach(() => useUserStore.getState().resetUser());

  it('saves a change for the signed-in user and shows the next user their own layout', () => {
    useUserStore.getState().setUserInfo({ username: 'alice' });
    const { result } = renderHook(() => useColumnSettings('orders-ordinary', KEYS, 'middle'));
    act(() => result.current.update({ ...toggleColumn(result.current.settings, 'b', false), density: 'small' }));
    expect(result.current.settings).toEqual({ order: KEYS, hidden: ['b'], density: 'small' });

    act(() => useUserStore.getState().setUserInfo({ username: 'bob' }));
    expect(result.current.settings).toEqual({ order: KEYS, hidden: [], density: 'middle' });

    act(() => useUserStore.getState().setUserInfo({ username: 'alice' }));
    expect(result.current.settings).toEqual({ order: KEYS, hidden: ['b'], density: 'small' });
  });

  it('resets the columns but keeps the chosen density', () => {
    useUserStore.getState().setUserInfo({ username: 'alice' });
    const { result } = renderHook(() => useColumnSettings('quotes', KEYS, 'middle'));
    act(() => result.current.update({ order: ['c', 'b', 'a'], hidden: ['a'], density: 'large' }));
    act(() => result.current.reset());
    expect(result.current.settings).toEqual({ order: KEYS, hidden: [], density: 'large' });
    const { result: again } = renderHook(() => useColumnSettings('quotes', KEYS, 'middle'));
    expect(again.current.settings).toEqual({ order: KEYS, hidden: [], density: 'large' });
  });
});
