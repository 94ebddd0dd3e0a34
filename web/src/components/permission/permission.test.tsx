import { act, render, renderHook, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { RoleRule } from '@/lib/route-meta';
import { useUserStore } from '@/stores/user-store';
import { Permission } from './permission';
import { hasPermission, NEED_ROLES_MESSAGE, usePermission } from './use-permission';

const setRole = (role: 'admin' | 'user' | '') => useUserStore.setState({ role });

beforeEach(() => setRole(''));

describe('<Permission>', () => {
  it('removes the element when the list lacks the current role', () => {
    setRole('user');
    render(
      <Permission roles={['admin']}>
        <button>admin only</button>
      </Permission>,
    );
    expect(screen.queryByText('admin only')).toBeNull();
  });

  it('renders it for a listed role, and follows role switches', () => {
    setRole('admin');
    render(
      <Permission roles={['admin']}>
        <button>admin only</button>
      </Permission>,
    );
    expect(screen.getByText('admin only')).toBeInTheDocument();
    act(() => setRole('user'));
    expect(screen.queryByText('admin only')).toBeNull();
  });

  it('renders for everyone with an empty list or *', () => {
    setRole('user');
    render(
      <>
        <Permission roles={[]}>
          <span>empty list</span>
        </Permission>
        <Permission roles={['*']}>
          <span>star</span>
        </Permission>
      </>,
    );
    expect(screen.getByText('empty list')).toBeInTheDocument();
    expect(screen.getByText('star')).toBeInTheDocument();
  });
});

describe('usePermission / hasPermission', () => {
  it('answers for the current role', () => {
    setRole('user');
    expect(renderHook(() => usePermission(['user', 'admin'])).result.current).toBe(true);
    expect(renderHook(() => usePermission(['admin'])).result.current).toBe(false);
  });

  it("admits a merchant user by its merchant role, and 'user' admits every merchant role", () => {
    expect(hasPermission(['owner', 'finance'], 'user', 'finance')).toBe(true);
    expect(hasPermission(['owner', 'finance'], 'user', 'operator')).toBe(false);
    expect(hasPermission(['user'], 'user', 'viewer')).toBe(true);
    expect(hasPermission(['owner'], 'admin', '')).toBe(false);
    expect(hasPermission(['owner'], 'user', '')).toBe(true);
    useUserStore.setState({ role: 'user', merchantRole: 'developer' });
    expect(renderHook(() => usePermission(['owner', 'developer'])).result.current).toBe(true);
    expect(renderHook(() => usePermission(['owner', 'finance'])).result.current).toBe(false);
    useUserStore.setState({ merchantRole: '' });
  });

  it('denies a listed role before the role is known', () => {
    expect(hasPermission(['admin', 'user'], '')).toBe(false);
  });

  it("throws 'need roles! Like v-permission=[admin,user]' for a non-array value", () => {
    expect(NEED_ROLES_MESSAGE).toBe('need roles! Like v-permission=[admin,user]');
    expect(() => hasPermission('admin', 'admin')).toThrow(new Error(NEED_ROLES_MESSAGE));
    expect(() => hasPermission(undefined, 'admin')).toThrow(NEED_ROLES_MESSAGE);
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<Permission roles={'admin' as unknown as RoleRule[]}>x</Permission>)).toThrow(
      NEED_ROLES_MESSAGE,
    );
    spy.mockRestore();
  });
});
