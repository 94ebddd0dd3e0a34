/**
 * The console's menu routes (the route table plus the result and exception demo pages), built from
 * menu.json, the one definition the server's menu reads too.
 * Paths of children are relative to their group, like the server menu (/api/user/menu).
 * Each page is its own lazily loaded module under src/features/.
 */
import type { ComponentType } from 'react';
import type { MenuRoute, RoleRule, RouteMeta } from '@/lib/route-meta';
import menuDefinition from './menu.json';

export type PageModule = { default: ComponentType };

export interface AppRoute extends MenuRoute {
  meta: RouteMeta;
  /** Loads the page component (leaf routes only). */
  load?: () => Promise<PageModule>;
  children?: AppRoute[];
}

/**
 * The menu's single definition (paths, names, roles, order), shared with the server's
 * /api/user/menu (src/users/menu.rs reads the same file).
 */
export interface MenuDefinition {
  path: string;
  name: string;
  locale: string;
  icon?: string;
  roles: RoleRule[];
  hideInMenu?: boolean;
  /** Template and demo material, shown only when the server serves it. */
  template?: boolean;
  children?: MenuDefinition[];
}

export const MENU_DEFINITION = menuDefinition as MenuDefinition[];

/** A template page's module, through the one loader of template-pages.ts. */
const templatePage = (name: string) => async () => (await import('./template-pages')).TEMPLATE_PAGES[name]();

/** Each page of the definition but the template pages, by route name: its lazily loaded module. */
export const PAGE_LOADERS: Record<string, () => Promise<PageModule>> = {
  Workplace: () => import('@/features/workplace/components/workplace-page'),
  Monitor: () => import('@/features/monitor/components/monitor-page'),
  OrderList: () => import('@/features/orders/components/order-list-page'),
  CardList: () => import('@/features/orders/components/card-order-list-page'),
  BehalfList: () => import('@/features/orders/components/behalf-order-list-page'),
  ReviewQueue: () => import('@/features/orders/components/review-queue-page'),
  AddList: () => import('@/features/add-order/components/add-order-page'),
  AllAddList: () => import('@/features/batch-add-orders/components/batch-add-orders-page'),
  Notifications: () => import('@/features/notifications/components/notifications-page'),
  QouteList: () => import('@/features/quotes/components/quote-list-page'),
  QuotePricing: () => import('@/features/quotes/components/quote-pricing-page'),
  Products: () => import('@/features/catalogue/components/products-page'),
  Blocklist: () => import('@/features/blocklist/components/blocklist-page'),
  Segments: () => import('@/features/segments/components/segments-page'),
  PortedNumbers: () => import('@/features/ported-numbers/components/ported-numbers-page'),
  Channels: () => import('@/features/channels/components/channels-page'),
  MaintenanceWindows: () => import('@/features/windows/components/windows-page'),
  Account: () => import('@/features/finance-account/components/account-records-page'),
  Merchants: () => import('@/features/merchants/components/merchants-page'),
  Certifications: () => import('@/features/user-settings/components/certification-review-page'),
  Funding: () => import('@/features/funding/components/funding-page'),
  FundingReview: () => import('@/features/funding/components/funding-review-page'),
  Statements: () => import('@/features/statements/components/statements-page'),
  SalesReport: () => import('@/features/reports/components/sales-report-page'),
  ProfitReport: () => import('@/features/reports/components/profit-report-page'),
  Reconciliation: () => import('@/features/reconciliation/components/reconciliation-page'),
  AuditLog: () => import('@/features/audit/components/audit-log-page'),
  Success: () => import('@/features/result/components/success-result-page'),
  Error: () => import('@/features/result/components/error-result-page'),
  '403': () => import('@/features/exception/components/forbidden-page'),
  '404': () => import('@/features/exception/components/not-found-page'),
  '500': () => import('@/features/exception/components/server-error-page'),
  Info: () => import('@/features/user/components/user-info-page'),
  Setting: () => import('@/features/user-settings/components/user-settings-page'),
  Staff: () => import('@/features/staff/components/staff-page'),
  SecurityHistory: () => import('@/features/security/components/security-history-page'),
  SignHelper: () => import('@/features/sign-helper/components/sign-helper-page'),
  MessageCenter: () => import('@/features/message-center/components/message-center-page'),
  GoogleAuth: () => import('@/features/two-factor/components/two-factor-page'),
};

export const isExternalPath = (path: string) => /^https?:\/\//.test(path);

function toAppRoute(definition: MenuDefinition, index: number, topLevel: boolean): AppRoute {
  const meta: RouteMeta = {
    requiresAuth: true,
    roles: definition.roles,
    locale: definition.locale,
    ...(definition.icon ? { icon: definition.icon } : {}),
    // Groups are ordered from 1, as the menu builder sorts them.
    ...(topLevel ? { order: index + 1 } : {}),
    ...(definition.hideInMenu ? { hideInMenu: true } : {}),
    ...(definition.template ? { template: true } : {}),
  };
  if (definition.children?.length) {
    return {
      path: definition.path,
      name: definition.name,
      meta,
      children: definition.children.map((child, childIndex) => toAppRoute(child, childIndex, false)),
    };
  }
  // An external link (the design-system site) is a menu entry, not a page.
  if (isExternalPath(definition.path)) return { path: definition.path, name: definition.name, meta };
  // Template pages load through template-pages.ts, one loader for all of them.
  const load = definition.template ? templatePage(definition.name) : PAGE_LOADERS[definition.name];
  return { path: definition.path, name: definition.name, meta, load };
}

export const APP_ROUTES: AppRoute[] = MENU_DEFINITION.map((definition, index) => toAppRoute(definition, index, true));

/** Join a parent and a child path the way the menu tree nests them. */
export function joinRoutePath(parent: string, child: string): string {
  if (child.startsWith('/') || isExternalPath(child)) return child;
  return `${parent.replace(/\/+$/, '')}/${child}`;
}

export interface LeafRoute {
  name: string;
  fullPath: string;
  meta: RouteMeta;
  load?: () => Promise<PageModule>;
}

/** Every page route of a tree, depth first, with its absolute path. */
export function flattenLeaves(routes: AppRoute[] | MenuRoute[], parentPath = ''): LeafRoute[] {
  const leaves: LeafRoute[] = [];
  for (const route of routes as AppRoute[]) {
    const fullPath = parentPath ? joinRoutePath(parentPath, route.path) : route.path;
    if (route.children?.length) {
      leaves.push(...flattenLeaves(route.children, fullPath));
    } else {
      leaves.push({ name: route.name, fullPath, meta: route.meta ?? {}, load: route.load });
    }
  }
  return leaves;
}

/** The console's pages (external links are menu entries only). */
export const APP_LEAVES: LeafRoute[] = flattenLeaves(APP_ROUTES).filter((leaf) => !isExternalPath(leaf.fullPath));

const PUBLIC_PATHS: Record<string, string> = {
  login: '/login',
  'not-found': '/not-found',
  ChangePassword: '/change-password',
};

/** Absolute path of a route name, or undefined if the console has no such page. */
export function pathOfRouteName(name: string | undefined | null): string | undefined {
  if (!name) return undefined;
  if (PUBLIC_PATHS[name]) return PUBLIC_PATHS[name];
  return APP_LEAVES.find((leaf) => leaf.name === name)?.fullPath;
}

export function leafByName(name: string): LeafRoute | undefined {
  return APP_LEAVES.find((leaf) => leaf.name === name);
}
