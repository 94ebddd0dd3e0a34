/** Route metadata shared by the route table, the guards, the menus and the server menu. */
import type { ApiSchema } from './api-paths';
import type { Role } from './session';

/** A merchant user's role (owner, finance, operator, developer, viewer): server-side rules in identity/permissions.rs. */
export type MerchantRole = ApiSchema<'MerchantRole'>;

/**
 * '*' means any role; 'user' every merchant user; a merchant role (owner, finance...)
 * only the merchant users holding it.
 */
export type RoleRule = Role | MerchantRole | '*';

/**
 * Whether a non-empty role list admits the caller: '*', their role, or (a merchant user)
 * their merchant role. A merchant user whose merchant role is not known yet counts as an
 * owner (an administrator previewing the merchant view sees what an owner sees).
 */
export function admitsRole(roles: readonly RoleRule[], role: Role | '', merchantRole: MerchantRole | '' = ''): boolean {
  if (roles.includes('*')) return true;
  if (role === '') return false;
  if (roles.includes(role)) return true;
  return role === 'user' && roles.includes(merchantRole || 'owner');
}

export interface RouteMeta {
  /** i18n key of the title, e.g. 'menu.dashboard.workplace'. */
  locale?: string;
  /** Icon name as the server sends it, e.g. 'icon-dashboard'. */
  icon?: string;
  order?: number;
  requiresAuth?: boolean;
  roles?: RoleRule[];
  hideInMenu?: boolean;
  /** Never shown in the tab bar (the Redirect route). */
  noTab?: boolean;
  /** Template and demo material: exists only when the server serves template pages. */
  template?: boolean;
}

/** A node of the menu tree: the shape of /api/user/menu and of the local route table. */
export interface MenuRoute {
  path: string;
  name: string;
  meta?: RouteMeta;
  children?: MenuRoute[];
}

/** What each route of the router carries in its `handle`. */
export interface RouteHandle {
  name: string;
  meta: RouteMeta;
}

/** A route without auth or without a role list is open; '*' means any role. */
export function isRouteAllowed(
  meta: RouteMeta | undefined,
  role: Role | '',
  merchantRole: MerchantRole | '' = '',
): boolean {
  if (!meta?.requiresAuth || !meta.roles) return true;
  return admitsRole(meta.roles, role, merchantRole);
}

/** The route tree without template entries (when the server does not serve them). */
export function withoutTemplates<T extends MenuRoute>(routes: T[]): T[] {
  return routes
    .filter((route) => !route.meta?.template)
    .map((route) => (route.children ? { ...route, children: withoutTemplates(route.children) } : route));
}
