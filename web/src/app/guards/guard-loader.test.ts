import { createMemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { RouteMeta } from '@/lib/route-meta';
import { APP_ROUTES } from '../routes/route-table';
import { guardLoader } from './guard-loader';
import type { GuardDependencies } from './route-access';

const ANY: RouteMeta = { requiresAuth: true, roles: ['*'] };

function deps(overrides: Partial<GuardDependencies>): GuardDependencies {
  return {
    hasToken: () => false,
    getRole: () => '',
    loadUserInfo: vi.fn(async () => undefined),
    logout: vi.fn(async () => undefined),
    isMenuFromServer: () => false,
    getServerMenu: () => [],
    loadServerMenu: vi.fn(async () => undefined),
    appRoutes: APP_ROUTES,
    ...overrides,
  };
}

async function settle(router: ReturnType<typeof createMemoryRouter>) {
  await vi.waitFor(() => expect(router.state.navigation.state).toBe('idle'));
  await vi.waitFor(() => expect(router.state.initialized).toBe(true));
}

describe('guardLoader inside a router', () => {
  it('turns a deep link without a session into login?…&redirect=Name', async () => {
    const guard = deps({});
    const router = createMemoryRouter(
      [
        { path: '/login', loader: guardLoader('login', {}, guard), element: null },
        { path: '/order/list', loader: guardLoader('OrderList', ANY, guard), element: null },
      ],
      { initialEntries: ['/order/list?x=1'] },
    );
    await settle(router);
    expect(router.state.location.pathname).toBe('/login');
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      x: '1',
      redirect: 'OrderList',
    });
  });

  it('sends a merchant from the monitor to the workplace, saying it may not open it', async () => {
    const tellForbidden = vi.fn();
    const guard = deps({ hasToken: () => true, getRole: () => 'user', tellForbidden });
    const router = createMemoryRouter(
      [
        { path: '/dashboard/workplace', loader: guardLoader('Workplace', ANY, guard), element: null },
        {
          path: '/dashboard/monitor',
          loader: guardLoader('Monitor', { requiresAuth: true, roles: ['admin'] }, guard),
          element: null,
        },
      ],
      { initialEntries: ['/dashboard/monitor'] },
    );
    await settle(router);
    expect(router.state.location.pathname).toBe('/dashboard/workplace');
    expect(tellForbidden).toHaveBeenCalledTimes(1);
  });

  it('says nothing of permission when a deep link without a session goes to login', async () => {
    const tellForbidden = vi.fn();
    const guard = deps({ tellForbidden });
    const router = createMemoryRouter(
      [
        { path: '/login', loader: guardLoader('login', {}, guard), element: null },
        {
          path: '/finance/audit',
          loader: guardLoader('Audit', { requiresAuth: true, roles: ['admin'] }, guard),
          element: null,
        },
      ],
      { initialEntries: ['/finance/audit'] },
    );
    await settle(router);
    expect(router.state.location.pathname).toBe('/login');
    expect(tellForbidden).not.toHaveBeenCalled();
  });
});
