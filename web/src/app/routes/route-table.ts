/**
 * The console's menu routes (§2 table plus the result and exception demo pages).
 * Paths of children are relative to their group, like the server menu (/api/user/menu).
 * Each page is its own lazily loaded module under src/features/.
 */
import type { ComponentType } from 'react';
import type { MenuRoute, RouteMeta } from '@/lib/route-meta';

export type PageModule = { default: ComponentType };

export interface AppRoute extends MenuRoute {
  meta: RouteMeta;
  /** Loads the page component (leaf routes only). */
  load?: () => Promise<PageModule>;
  children?: AppRoute[];
}

const any = { requiresAuth: true, roles: ['*'] } satisfies RouteMeta;

export const APP_ROUTES: AppRoute[] = [
  {
    path: '/dashboard',
    name: 'dashboard',
    meta: { ...any, locale: 'menu.dashboard', icon: 'icon-dashboard', order: 1 },
    children: [
      {
        path: 'workplace',
        name: 'Workplace',
        meta: { ...any, locale: 'menu.dashboard.workplace' },
        load: () => import('@/features/workplace/components/workplace-page'),
      },
      {
        path: 'monitor',
        name: 'Monitor',
        meta: { requiresAuth: true, roles: ['admin'], locale: 'menu.dashboard.monitor' },
        load: () => import('@/features/monitor/components/monitor-page'),
      },
    ],
  },
  {
    path: '/order',
    name: 'order',
    meta: { ...any, locale: 'menu.order', icon: 'icon-list', order: 2 },
    children: [
      {
        path: 'list',
        name: 'OrderList',
        meta: { ...any, locale: 'menu.order.list' },
        load: () => import('@/features/orders/components/order-list-page'),
      },
      {
        path: 'cardList',
        name: 'CardList',
        meta: { ...any, locale: 'menu.order.cardList' },
        load: () => import('@/features/orders/components/card-order-list-page'),
      },
      {
        path: 'behalfList',
        name: 'BehalfList',
        meta: { ...any, locale: 'menu.order.behalfList' },
        load: () => import('@/features/orders/components/behalf-order-list-page'),
      },
      {
        path: 'addList',
        name: 'AddList',
        meta: { ...any, locale: 'menu.order.addList' },
        load: () => import('@/features/add-order/components/add-order-page'),
      },
      {
        path: 'allAddList',
        name: 'AllAddList',
        meta: { ...any, locale: 'menu.order.allAddList' },
        load: () => import('@/features/batch-add-orders/components/batch-add-orders-page'),
      },
    ],
  },
  {
    path: '/qoute',
    name: 'qoute',
    meta: { ...any, locale: 'menu.qoute', icon: 'icon-tags', order: 3 },
    children: [
      {
        path: 'list',
        name: 'QouteList',
        meta: { ...any, locale: 'menu.qoute.list' },
        load: () => import('@/features/quotes/components/quote-list-page'),
      },
    ],
  },
  {
    path: '/finance',
    name: 'finance',
    meta: { ...any, locale: 'menu.finance', icon: 'icon-bar-chart', order: 4 },
    children: [
      {
        path: 'account',
        name: 'Account',
        meta: { ...any, locale: 'menu.finance.account' },
        load: () => import('@/features/finance-account/components/account-records-page'),
      },
      {
        path: 'merchants',
        name: 'Merchants',
        meta: { requiresAuth: true, roles: ['admin'], locale: 'menu.finance.merchants' },
        load: () => import('@/features/merchants/components/merchants-page'),
      },
      {
        path: 'certifications',
        name: 'Certifications',
        meta: { requiresAuth: true, roles: ['admin'], locale: 'menu.finance.certifications' },
        load: () => import('@/features/user-settings/components/certification-review-page'),
      },
    ],
  },
  {
    path: '/result',
    name: 'result',
    meta: { ...any, locale: 'menu.result', icon: 'icon-check-circle', order: 5 },
    children: [
      {
        path: 'success',
        name: 'Success',
        meta: { ...any, locale: 'menu.result.success' },
        load: () => import('@/features/result/components/success-result-page'),
      },
      {
        path: 'error',
        name: 'Error',
        meta: { ...any, locale: 'menu.result.error' },
        load: () => import('@/features/result/components/error-result-page'),
      },
    ],
  },
  {
    path: '/exception',
    name: 'exception',
    meta: { ...any, locale: 'menu.exception', icon: 'icon-exclamation-circle', order: 6 },
    children: [
      {
        path: '403',
        name: '403',
        meta: { ...any, locale: 'menu.exception.403' },
        load: () => import('@/features/exception/components/forbidden-page'),
      },
      {
        path: '404',
        name: '404',
        meta: { ...any, locale: 'menu.exception.404' },
        load: () => import('@/features/exception/components/not-found-page'),
      },
      {
        path: '500',
        name: '500',
        meta: { ...any, locale: 'menu.exception.500' },
        load: () => import('@/features/exception/components/server-error-page'),
      },
    ],
  },
  {
    path: '/user',
    name: 'user',
    meta: { ...any, locale: 'menu.user', icon: 'icon-user', order: 7 },
    children: [
      {
        path: 'info',
        name: 'Info',
        meta: { ...any, locale: 'menu.user.info' },
        load: () => import('@/features/user/components/user-info-page'),
      },
      {
        path: 'setting',
        name: 'Setting',
        meta: { ...any, locale: 'menu.user.setting' },
        load: () => import('@/features/user-settings/components/user-settings-page'),
      },
      {
        // Reached from the navbar bell and the user pages, not from the menu.
        path: 'message',
        name: 'MessageCenter',
        meta: { ...any, locale: 'menu.user.messageCenter', hideInMenu: true },
        load: () => import('@/features/message-center/components/message-center-page'),
      },
      {
        path: 'google-auth',
        name: 'GoogleAuth',
        meta: { ...any, locale: 'menu.user.googleAuth' },
        load: () => import('@/features/two-factor/components/two-factor-page'),
      },
    ],
  },
];

/** Join a parent and a child path the way the menu tree nests them. */
export function joinRoutePath(parent: string, child: string): string {
  if (child.startsWith('/')) return child;
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

export const APP_LEAVES: LeafRoute[] = flattenLeaves(APP_ROUTES);

const PUBLIC_PATHS: Record<string, string> = {
  login: '/login',
  'not-found': '/not-found',
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
