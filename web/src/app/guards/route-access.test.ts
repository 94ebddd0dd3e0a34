import { describe, expect, it, vi } from 'vitest';
import type { MenuRoute, RouteMeta } from '@/lib/route-meta';
import type { Role } from '@/lib/session';
import { APP_ROUTES, pathOfRouteName } from '../routes/route-table';
import {
  decideAccess,
  findFirstPermittedRoute,
  hrefOfTarget,
  isRouteAllowed,
  menuContainsRoute,
  postLoginHref,
  resolveNavigation,
  type GuardDependencies,
  type NavigationTarget,
} from './route-access';

const ANY: RouteMeta = { requiresAuth: true, roles: ['*'] };
const ADMIN_ONLY: RouteMeta = { requiresAuth: true, roles: ['admin'] };

const workplace: NavigationTarget = { name: 'Workplace', meta: ANY, query: {} };
const monitor: NavigationTarget = { name: 'Monitor', meta: ADMIN_ONLY, query: {} };

interface FakeState {
  token: boolean;
  role: Role | '';
  menuFromServer: boolean;
  serverMenu: MenuRoute[];
}

function fakeDeps(state: Partial<FakeState>, overrides: Partial<GuardDependencies> = {}) {
  const current: FakeState = { token: true, role: 'user', menuFromServer: false, serverMenu: [], ...state };
  const deps = {
    hasToken: () => current.token,
    getRole: () => current.role,
    loadUserInfo: vi.fn(async () => {
      current.role = 'user';
    }),
    logout: vi.fn(async () => {
      current.token = false;
      current.role = '';
    }),
    isMenuFromServer: () => current.menuFromServer,
    getServerMenu: () => current.serverMenu,
    loadServerMenu: vi.fn(async () => {
      current.serverMenu = [
        { path: '/dashboard', name: 'dashboard', children: [{ path: 'workplace', name: 'Workplace' }] },
      ];
    }),
    appRoutes: APP_ROUTES,
    ...overrides,
  } satisfies GuardDependencies;
  return { deps, current };
}

describe('isRouteAllowed', () => {
  it('opens routes without auth or without a role list, and * to any role', () => {
    expect(isRouteAllowed(undefined, '')).toBe(true);
    expect(isRouteAllowed({ requiresAuth: false, roles: ['admin'] }, 'user')).toBe(true);
    expect(isRouteAllowed({ requiresAuth: true }, 'user')).toBe(true);
    expect(isRouteAllowed(ANY, 'user')).toBe(true);
  });

  it('admits only listed roles otherwise', () => {
    expect(isRouteAllowed(ADMIN_ONLY, 'admin')).toBe(true);
    expect(isRouteAllowed(ADMIN_ONLY, 'user')).toBe(false);
    expect(isRouteAllowed(ADMIN_ONLY, '')).toBe(false);
  });
});

describe('resolveNavigation: no token', () => {
  it('sends any route but login to login, carrying the route name and query', async () => {
    const { deps } = fakeDeps({ token: false, role: '' });
    const decision = await resolveNavigation({ name: 'OrderList', meta: ANY, query: { x: '1', page: '2' } }, deps);
    expect(decision).toEqual({
      kind: 'redirect',
      to: { name: 'login', query: { x: '1', page: '2', redirect: 'OrderList' } },
    });
    expect(deps.loadUserInfo).not.toHaveBeenCalled();
  });

  it('lets the login page through', async () => {
    const { deps } = fakeDeps({ token: false, role: '' });
    expect(await resolveNavigation({ name: 'login', query: {} }, deps)).toEqual({ kind: 'allow' });
  });

  it('also guards the not-found page behind login (only login is open without a token)', async () => {
    const { deps } = fakeDeps({ token: false, role: '' });
    const decision = await resolveNavigation({ name: 'not-found', meta: { requiresAuth: false }, query: {} }, deps);
    expect(decision).toMatchObject({ kind: 'redirect', to: { name: 'login' } });
  });
});

describe('resolveNavigation: token without role', () => {
  it('loads user info first, then decides with the loaded role', async () => {
    const { deps } = fakeDeps({ role: '' });
    expect(await resolveNavigation(workplace, deps)).toEqual({ kind: 'allow' });
    expect(deps.loadUserInfo).toHaveBeenCalledTimes(1);
    expect(deps.logout).not.toHaveBeenCalled();
  });

  it('logs out and goes to login (with the target) when user info fails', async () => {
    const { deps, current } = fakeDeps(
      { role: '' },
      {
        loadUserInfo: vi.fn(async () => {
          throw new Error('50008');
        }),
      },
    );
    const decision = await resolveNavigation({ ...workplace, query: { tab: 'a' } }, deps);
    expect(deps.logout).toHaveBeenCalledTimes(1);
    expect(current.token).toBe(false);
    expect(decision).toEqual({ kind: 'redirect', to: { name: 'login', query: { tab: 'a', redirect: 'Workplace' } } });
  });

  it('still reaches login when logout itself fails', async () => {
    const { deps } = fakeDeps(
      { role: '' },
      {
        loadUserInfo: vi.fn(async () => Promise.reject(new Error('no'))),
        logout: vi.fn(async () => Promise.reject(new Error('network'))),
      },
    );
    expect(await resolveNavigation(workplace, deps)).toMatchObject({ kind: 'redirect', to: { name: 'login' } });
  });

  it('does not reload user info once the role is known', async () => {
    const { deps } = fakeDeps({ role: 'admin' });
    await resolveNavigation(monitor, deps);
    expect(deps.loadUserInfo).not.toHaveBeenCalled();
  });
});

describe('resolveNavigation: temporary password', () => {
  const changePassword: NavigationTarget = { name: 'ChangePassword', meta: ANY, query: {} };

  it('sends a user holding a temporary password to change it before any page, without the menu', async () => {
    const { deps } = fakeDeps({ role: '', menuFromServer: true }, { mustChangePassword: () => true });
    expect(await resolveNavigation(workplace, deps)).toEqual({ kind: 'redirect', to: { name: 'ChangePassword' } });
    expect(await resolveNavigation(changePassword, deps)).toEqual({ kind: 'allow' });
    // The server refuses the menu until the password is changed: it is not asked for.
    expect(deps.loadServerMenu).not.toHaveBeenCalled();
  });

  it('sends a user of a merchant requiring two-factor to set it up before any page', async () => {
    const { deps } = fakeDeps({ role: 'user' }, { mustSetUpTwoFactor: () => true });
    expect(await resolveNavigation(workplace, deps)).toEqual({ kind: 'redirect', to: { name: 'GoogleAuth' } });
    const setUp: NavigationTarget = { name: 'GoogleAuth', meta: ANY, query: {} };
    expect(await resolveNavigation(setUp, deps)).toEqual({ kind: 'allow' });
  });

  it('lets everyone else through to the page asked for', async () => {
    const { deps } = fakeDeps({ role: 'user' }, { mustChangePassword: () => false });
    expect(await resolveNavigation(workplace, deps)).toEqual({ kind: 'allow' });
  });
});

describe('resolveNavigation: roles (menu from server off)', () => {
  it('lets an admin open the monitor', async () => {
    const { deps } = fakeDeps({ role: 'admin' });
    expect(await resolveNavigation(monitor, deps)).toEqual({ kind: 'allow' });
  });

  it('sends a merchant away from the monitor to the first permitted route', async () => {
    const { deps } = fakeDeps({ role: 'user' });
    expect(await resolveNavigation(monitor, deps)).toEqual({
      kind: 'redirect',
      to: { name: 'Workplace' },
      forbidden: true,
    });
  });

  it('goes to not-found when no route is permitted', () => {
    const decision = decideAccess({
      target: monitor,
      role: 'user',
      menuFromServer: false,
      serverMenu: [],
      appRoutes: [{ path: '/admin', name: 'admin', meta: ADMIN_ONLY, children: [{ path: 'x', name: 'X' }] }],
    });
    expect(decision).toEqual({ kind: 'redirect', to: { name: 'not-found' } });
  });
});

describe('resolveNavigation: menu from server', () => {
  it('fetches the menu once when empty and admits routes it contains', async () => {
    const { deps } = fakeDeps({ menuFromServer: true });
    expect(await resolveNavigation(workplace, deps)).toEqual({ kind: 'allow' });
    expect(await resolveNavigation(workplace, deps)).toEqual({ kind: 'allow' });
    expect(deps.loadServerMenu).toHaveBeenCalledTimes(1);
  });

  it('sends routes missing from the server menu to not-found', async () => {
    const { deps } = fakeDeps({ menuFromServer: true });
    const decision = await resolveNavigation({ name: 'OrderList', meta: ANY, query: {} }, deps);
    expect(decision).toEqual({ kind: 'redirect', to: { name: 'not-found' } });
  });

  it('does not fetch for whitelisted routes and lets them through', async () => {
    const { deps } = fakeDeps({ menuFromServer: true });
    expect(await resolveNavigation({ name: 'not-found', meta: { requiresAuth: false }, query: {} }, deps)).toEqual({
      kind: 'allow',
    });
    expect(await resolveNavigation({ name: 'login', query: {} }, deps)).toEqual({ kind: 'allow' });
    expect(deps.loadServerMenu).not.toHaveBeenCalled();
  });

  it('sends a route the server lists but the role may not open to not-found', () => {
    const decision = decideAccess({
      target: monitor,
      role: 'user',
      menuFromServer: true,
      serverMenu: [{ path: '/dashboard', name: 'dashboard', children: [{ path: 'monitor', name: 'Monitor' }] }],
      appRoutes: APP_ROUTES,
    });
    expect(decision).toEqual({ kind: 'redirect', to: { name: 'not-found' } });
  });

  it('keeps the hidden tab-reload route usable', () => {
    const decision = decideAccess({
      target: { name: 'Redirect', meta: ANY, query: {} },
      role: 'user',
      menuFromServer: true,
      serverMenu: [],
      appRoutes: APP_ROUTES,
    });
    expect(decision).toEqual({ kind: 'allow' });
  });
});

describe('route tree helpers', () => {
  it('finds the first permitted page depth first in menu order', () => {
    expect(findFirstPermittedRoute(APP_ROUTES, 'user')).toBe('Workplace');
    const adminFirst: MenuRoute[] = [
      { path: '/a', name: 'a', meta: ADMIN_ONLY, children: [{ path: 'x', name: 'AdminPage' }] },
      { path: '/b', name: 'b', meta: ANY, children: [{ path: 'y', name: 'Open', meta: ANY }] },
    ];
    expect(findFirstPermittedRoute(adminFirst, 'user')).toBe('Open');
    expect(findFirstPermittedRoute(adminFirst, 'admin')).toBe('AdminPage');
  });

  it("follows a merchant user's role (an unknown one counts as an owner)", () => {
    const account = { name: 'Account', meta: { requiresAuth: true, roles: ['admin', 'owner', 'finance', 'viewer'] } };
    const decide = (merchantRole: 'operator' | 'finance' | '') =>
      decideAccess({
        target: { ...account, query: {} },
        role: 'user',
        merchantRole,
        menuFromServer: false,
        serverMenu: [],
        appRoutes: APP_ROUTES,
      } as Parameters<typeof decideAccess>[0]);
    expect(decide('finance')).toEqual({ kind: 'allow' });
    expect(decide('')).toEqual({ kind: 'allow' });
    expect(decide('operator')).toEqual({ kind: 'redirect', to: { name: 'Workplace' }, forbidden: true });
    expect(findFirstPermittedRoute(APP_ROUTES, 'user', 'operator')).toBe('Workplace');
  });

  it('finds nested names in a menu tree', () => {
    expect(menuContainsRoute(APP_ROUTES, 'GoogleAuth')).toBe(true);
    expect(menuContainsRoute(APP_ROUTES, 'Nope')).toBe(false);
  });

  it('registers every route of the table with its path and roles', () => {
    const expected: [string, string, string[]][] = [
      ['Workplace', '/dashboard/workplace', ['*']],
      ['Monitor', '/dashboard/monitor', ['admin']],
      ['Account', '/finance/account', ['admin', 'owner', 'finance', 'viewer']],
      ['OrderList', '/order/list', ['*']],
      ['CardList', '/order/cardList', ['*']],
      ['BehalfList', '/order/behalfList', ['*']],
      ['AddList', '/order/addList', ['admin', 'owner', 'operator']],
      ['AllAddList', '/order/allAddList', ['admin', 'owner', 'operator']],
      ['QouteList', '/qoute/list', ['*']],
      ['Setting', '/user/setting', ['*']],
      ['GoogleAuth', '/user/google-auth', ['*']],
      ['Info', '/user/info', ['*']],
      ['MessageCenter', '/user/message', ['*']],
      ['Staff', '/user/staff', ['owner']],
    ];
    for (const [name, path, roles] of expected) {
      expect(pathOfRouteName(name)).toBe(path);
      const leaf = APP_ROUTES.flatMap((group) => group.children ?? []).find((route) => route.name === name);
      expect(leaf?.meta.roles).toEqual(roles);
      expect(leaf?.meta.requiresAuth).toBe(true);
    }
    expect(pathOfRouteName('login')).toBe('/login');
  });

  it('keeps the message center out of the menu (the navbar bell leads there)', () => {
    const user = APP_ROUTES.find((group) => group.name === 'user');
    expect(user?.children?.find((route) => route.name === 'MessageCenter')?.meta.hideInMenu).toBe(true);
    expect(user?.children?.find((route) => route.name === 'Info')?.meta.hideInMenu).toBeFalsy();
  });
});

describe('URLs of guard decisions', () => {
  it('builds the login URL with the redirect and the original query', () => {
    const href = hrefOfTarget(
      { name: 'login', query: { x: '1', redirect: 'OrderList' } },
      pathOfRouteName,
      '/not-found',
    );
    expect(href).toBe('/login?x=1&redirect=OrderList');
  });

  it('falls back to not-found for unknown names', () => {
    expect(hrefOfTarget({ name: 'not-found' }, pathOfRouteName, '/not-found')).toBe('/not-found');
    expect(hrefOfTarget({ name: 'Nope' }, pathOfRouteName, '/not-found')).toBe('/not-found');
  });

  it('returns to the redirect target with its query after login', () => {
    expect(postLoginHref({ redirect: 'OrderList', x: '1' }, pathOfRouteName, '/dashboard/workplace')).toBe(
      '/order/list?x=1',
    );
    expect(postLoginHref({ redirect: 'Monitor' }, pathOfRouteName, '/dashboard/workplace')).toBe('/dashboard/monitor');
  });

  it('goes to the workplace without a usable redirect', () => {
    const home = '/dashboard/workplace';
    expect(postLoginHref({}, pathOfRouteName, home)).toBe(home);
    expect(postLoginHref({ redirect: 'login' }, pathOfRouteName, home)).toBe(home);
    expect(postLoginHref({ redirect: 'not-found', x: '1' }, pathOfRouteName, home)).toBe(home);
    expect(postLoginHref({ redirect: 'https://evil.example' }, pathOfRouteName, home)).toBe(home);
  });
});

describe('resolveNavigation: template pages', () => {
  const policyList: NavigationTarget = { name: 'PolicyList', meta: { ...ANY, template: true }, query: {} };

  it('stores the system information once signed in, and finds template pages only when the server serves them', async () => {
    let on = false;
    const loadSystemInfo = vi.fn(async () => ({ templatePages: on }));
    const { deps } = fakeDeps({}, { loadSystemInfo });
    expect(await resolveNavigation(policyList, deps)).toEqual({ kind: 'redirect', to: { name: 'not-found' } });
    expect(loadSystemInfo).toHaveBeenCalledTimes(1);
    // Without the loader (or before the server says so) there are no template pages.
    expect(await resolveNavigation(policyList, fakeDeps({}).deps)).toEqual({
      kind: 'redirect',
      to: { name: 'not-found' },
    });
    on = true;
    expect(await resolveNavigation(policyList, deps)).toEqual({ kind: 'allow' });
    // The real product does not depend on the flag.
    on = false;
    expect(await resolveNavigation(workplace, deps)).toEqual({ kind: 'allow' });
  });

  it('asks for the system information beside the user info, not after it', async () => {
    const order: string[] = [];
    let answerUserInfo = () => {};
    const { deps } = fakeDeps(
      { role: '' },
      {
        loadUserInfo: vi.fn(() => {
          order.push('user info asked');
          return new Promise<void>((resolve) => {
            answerUserInfo = resolve;
          });
        }),
        loadSystemInfo: vi.fn(async () => {
          order.push('system info asked');
          return { templatePages: false };
        }),
      },
    );
    const decision = resolveNavigation(workplace, deps);
    await vi.waitFor(() => expect(order).toHaveLength(2));
    expect(order).toEqual(['system info asked', 'user info asked']);
    answerUserInfo();
    expect(await decision).toEqual({ kind: 'allow' });
  });

  it('stores the system information before a failed sign-in logs out, not after', async () => {
    const order: string[] = [];
    const { deps } = fakeDeps(
      { role: '' },
      {
        loadUserInfo: vi.fn(async () => Promise.reject(new Error('50008'))),
        loadSystemInfo: vi.fn(async () => {
          await Promise.resolve();
          order.push('system info stored');
          return { templatePages: false };
        }),
        logout: vi.fn(async () => {
          order.push('logged out');
        }),
      },
    );
    expect(await resolveNavigation(workplace, deps)).toMatchObject({ kind: 'redirect', to: { name: 'login' } });
    expect(order).toEqual(['system info stored', 'logged out']);
  });

  it('asks for nothing before sign-in', async () => {
    const loadSystemInfo = vi.fn(async () => ({ templatePages: true }));
    const { deps } = fakeDeps({ token: false }, { loadSystemInfo });
    await resolveNavigation(policyList, deps);
    expect(loadSystemInfo).not.toHaveBeenCalled();
  });
});
