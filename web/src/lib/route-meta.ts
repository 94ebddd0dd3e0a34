/** Route metadata shared by the route table, the guards, the menus and the server menu. */
import type { Role } from './session';

/** '*' means any role. */
export type RoleRule = Role | '*';

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
export function isRouteAllowed(meta: RouteMeta | undefined, role: Role | ''): boolean {
  if (!meta?.requiresAuth || !meta.roles) return true;
  if (meta.roles.includes('*')) return true;
  return role !== '' && meta.roles.includes(role);
}

/** The route tree without template entries (when the server does not serve them). */
export function withoutTemplates<T extends MenuRoute>(routes: T[]): T[] {
  return routes
    .filter((route) => !route.meta?.template)
    .map((route) => (route.children ? { ...route, children: withoutTemplates(route.children) } : route));
}
