/**
 * Route guard decisions as pure functions, so they can be tested without a router.
 *
 * 1. No token: every route but login goes to login, carrying the target's name and query
 *    as `redirect` (login then returns there).
 * 2. Token but no role: user info is loaded first; if that fails the user is logged out
 *    and sent to login (again carrying the target).
 * 3. Menu from server on: the menu is fetched once when empty; a route in neither the server
 *    menu nor the whitelist goes to not-found (so does one the role may not open).
 * 4. Otherwise a route the role may not open goes to the first permitted route, or not-found;
 *    the redirect says it was for lack of permission (the console then tells the user why).
 */
import { isRouteAllowed, type MenuRoute, type MerchantRole, type RouteMeta } from '@/lib/route-meta';
import type { Role } from '@/lib/session';
import { ROUTE_NAMES } from '../routes/route-names';

export { isRouteAllowed };

/** Routes every menu implicitly contains. */
export const WHITE_LIST: readonly string[] = [ROUTE_NAMES.login, ROUTE_NAMES.notFound, ROUTE_NAMES.changePassword];
/**
 * Also allowed with a server menu: the hidden tab-reload route, which only forwards to
 * another route (that is then checked itself).
 */
export const ALWAYS_IN_MENU: readonly string[] = [...WHITE_LIST, ROUTE_NAMES.redirect];

export type Query = Record<string, string>;

export interface RouteTarget {
  name: string;
  query?: Query;
}

export interface NavigationTarget {
  name: string;
  meta?: RouteMeta;
  query: Query;
}

export type GuardDecision =
  | { kind: 'allow' }
  | {
      kind: 'redirect';
      to: RouteTarget;
      /** The user's role may not open the page asked for (not a missing session or page). */
      forbidden?: boolean;
    };

const ALLOW: GuardDecision = { kind: 'allow' };
const NOT_FOUND: GuardDecision = { kind: 'redirect', to: { name: ROUTE_NAMES.notFound } };

/** First page (depth first, in menu order) the role may open, by name. */
export function findFirstPermittedRoute(
  routes: MenuRoute[],
  role: Role | '',
  merchantRole: MerchantRole | '' = '',
): string | null {
  for (const route of routes) {
    if (!isRouteAllowed(route.meta, role, merchantRole)) continue;
    if (route.children?.length) {
      const child = findFirstPermittedRoute(route.children, role, merchantRole);
      if (child) return child;
    } else {
      return route.name;
    }
  }
  return null;
}

/** Whether a route name occurs anywhere in a menu tree. */
export function menuContainsRoute(menu: MenuRoute[], name: string): boolean {
  return menu.some((route) => route.name === name || menuContainsRoute(route.children ?? [], name));
}

/** Login, carrying where the user wanted to go. */
export function loginRedirect(target: NavigationTarget): GuardDecision {
  return {
    kind: 'redirect',
    to: { name: ROUTE_NAMES.login, query: { ...target.query, redirect: target.name } },
  };
}

export interface AccessInput {
  target: NavigationTarget;
  role: Role | '';
  /** A merchant user's role ('' for an administrator or when not known). */
  merchantRole?: MerchantRole | '';
  menuFromServer: boolean;
  serverMenu: MenuRoute[];
  appRoutes: MenuRoute[];
}

/** Steps 3 and 4: the decision once the role (and server menu, if used) is known. */
export function decideAccess({
  target,
  role,
  merchantRole = '',
  menuFromServer,
  serverMenu,
  appRoutes,
}: AccessInput): GuardDecision {
  const allowed = isRouteAllowed(target.meta, role, merchantRole);
  if (menuFromServer) {
    const inMenu = ALWAYS_IN_MENU.includes(target.name) || menuContainsRoute(serverMenu, target.name);
    return inMenu && allowed ? ALLOW : NOT_FOUND;
  }
  if (allowed) return ALLOW;
  const first = findFirstPermittedRoute(appRoutes, role, merchantRole);
  return first ? { kind: 'redirect', to: { name: first }, forbidden: true } : NOT_FOUND;
}

/** What the guard needs from the rest of the console. */
export interface GuardDependencies {
  hasToken: () => boolean;
  getRole: () => Role | '';
  /** A merchant user's role ('' for an administrator). */
  getMerchantRole?: () => MerchantRole | '';
  /** Loads user info into the user store (so getRole answers); rejects on failure. */
  loadUserInfo: () => Promise<void>;
  /** Clears the session whatever the server says. */
  logout: () => Promise<void>;
  isMenuFromServer: () => boolean;
  getServerMenu: () => MenuRoute[];
  /** Fetches the server menu into the store; must not reject. */
  loadServerMenu: () => Promise<void>;
  appRoutes: MenuRoute[];
  /**
   * Stores the server's system information once per session (system_info), readies what
   * its flags switch on and answers them; must not reject. Without it, template pages
   * do not exist.
   */
  loadSystemInfo?: () => Promise<{ templatePages: boolean }>;
  /** The user holds a temporary password (every other server call is refused until it changes). */
  mustChangePassword?: () => boolean;
  /** The merchant requires two-factor and the user has not set it up (every other server call is refused). */
  mustSetUpTwoFactor?: () => boolean;
  /** Says the user's group may not open the page asked for (it was sent elsewhere); must not reject. */
  tellForbidden?: () => void;
}

export async function resolveNavigation(target: NavigationTarget, deps: GuardDependencies): Promise<GuardDecision> {
  if (!deps.hasToken()) {
    return target.name === ROUTE_NAMES.login ? ALLOW : loginRedirect(target);
  }
  // Asked for at once, beside the user info (right after sign-in both are needed, and one
  // after the other they were two round trips before the first page could render).
  const features = WHITE_LIST.includes(target.name) ? undefined : deps.loadSystemInfo?.();
  if (!deps.getRole()) {
    try {
      await deps.loadUserInfo();
    } catch {
      // Stored before logout clears the session, not after.
      await features;
      await deps.logout().catch(() => undefined);
      return target.name === ROUTE_NAMES.login ? ALLOW : loginRedirect(target);
    }
  }
  // A temporary password is changed before anything else (the server refuses the rest).
  if (deps.mustChangePassword?.() && target.name !== ROUTE_NAMES.changePassword) {
    return { kind: 'redirect', to: { name: ROUTE_NAMES.changePassword } };
  }
  // So is two-factor, when the merchant requires it of every user.
  if (deps.mustSetUpTwoFactor?.() && target.name !== ROUTE_NAMES.googleAuth) {
    return { kind: 'redirect', to: { name: ROUTE_NAMES.googleAuth } };
  }
  if (deps.isMenuFromServer() && deps.getServerMenu().length === 0 && !WHITE_LIST.includes(target.name)) {
    await deps.loadServerMenu();
  }
  const templatePages = (await features)?.templatePages === true;
  // Template pages exist only when the server serves them (otherwise they are not found).
  if (target.meta?.template && !templatePages) return NOT_FOUND;
  return decideAccess({
    target,
    role: deps.getRole(),
    merchantRole: deps.getMerchantRole?.() ?? '',
    menuFromServer: deps.isMenuFromServer(),
    serverMenu: deps.getServerMenu(),
    appRoutes: deps.appRoutes,
  });
}

/** The URL (path + search) a guard redirect leads to, given a name → path lookup. */
export function hrefOfTarget(
  to: RouteTarget,
  pathOf: (name: string) => string | undefined,
  notFoundPath: string,
): string {
  const path = pathOf(to.name) ?? notFoundPath;
  const search = new URLSearchParams(to.query ?? {}).toString();
  return search ? `${path}?${search}` : path;
}

/** After login: the redirect target's path with the rest of the query, else the workplace. */
export function postLoginHref(
  query: Query,
  pathOf: (name: string) => string | undefined,
  workplacePath: string,
): string {
  const { redirect, ...rest } = query;
  const blocked = [ROUTE_NAMES.login, ROUTE_NAMES.notFound, ROUTE_NAMES.redirect] as string[];
  const path = redirect && !blocked.includes(redirect) ? pathOf(redirect) : undefined;
  const search = new URLSearchParams(rest).toString();
  const target = path ?? workplacePath;
  return search && path ? `${target}?${search}` : target;
}
