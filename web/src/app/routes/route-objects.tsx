/**
 * The router's route objects, built from the route table. The login page ships in the
 * entry; every other page and the default layout load lazily; every route runs the
 * guard loader first.
 */
import { redirect, type RouteObject } from 'react-router';
import { loadAntdLocale } from '@/lib/antd-locale';
import { currentLocale } from '@/lib/i18n';
import type { RouteHandle, RouteMeta } from '@/lib/route-meta';
import { guardLoader } from '../guards/guard-loader';
import LoginRoute from './login-route';
import { RedirectPage } from './redirect-page';
import { BootFallback, RootShell } from './root-shell';
import { RouteErrorPage } from './route-error-page';
import { LOGIN_PATH, ROUTE_NAMES } from './route-names';
import { APP_LEAVES } from './route-table';

const PUBLIC_META: RouteMeta = { requiresAuth: false };
const CHANGE_PASSWORD_META: RouteMeta = {
  requiresAuth: true,
  roles: ['*'],
  hideInMenu: true,
  noTab: true,
  locale: 'menu.changePassword',
};
const REDIRECT_META: RouteMeta = { requiresAuth: true, roles: ['*'], hideInMenu: true, noTab: true };

const handleOf = (name: string, meta: RouteMeta): RouteHandle => ({ name, meta });

/** Load a page module that renders antd together with antd's locale data. */
async function withAntdLocale<T>(load: () => Promise<T>): Promise<T> {
  const [module] = await Promise.all([load(), loadAntdLocale(currentLocale())]);
  return module;
}

export function buildRouteObjects(): RouteObject[] {
  return [
    {
      id: 'root',
      Component: RootShell,
      HydrateFallback: BootFallback,
      ErrorBoundary: RouteErrorPage,
      children: [
        // The loader always redirects; `element: null` says that nothing renders here on
        // purpose (without it React Router warns that the leaf route has no element).
        { index: true, loader: () => redirect(LOGIN_PATH), element: null },
        {
          id: ROUTE_NAMES.login,
          path: 'login',
          handle: handleOf(ROUTE_NAMES.login, { ...PUBLIC_META, locale: 'menu.login' }),
          loader: guardLoader(ROUTE_NAMES.login, PUBLIC_META),
          // Not lazy: the login page is where everyone lands first, so it ships in the entry.
          Component: LoginRoute,
        },
        {
          id: 'default-layout',
          lazy: async () => ({ Component: (await withAntdLocale(() => import('../layout/default-layout'))).default }),
          children: [
            {
              id: ROUTE_NAMES.redirect,
              path: 'redirect/*',
              handle: handleOf(ROUTE_NAMES.redirect, REDIRECT_META),
              loader: guardLoader(ROUTE_NAMES.redirect, REDIRECT_META),
              Component: RedirectPage,
            },
            ...APP_LEAVES.map<RouteObject>((leaf) => ({
              id: leaf.name,
              path: leaf.fullPath.replace(/^\//, ''),
              handle: handleOf(leaf.name, leaf.meta),
              loader: guardLoader(leaf.name, leaf.meta),
              lazy: async () => ({ Component: (await leaf.load!()).default }),
            })),
          ],
        },
        {
          id: ROUTE_NAMES.changePassword,
          path: 'change-password',
          handle: handleOf(ROUTE_NAMES.changePassword, CHANGE_PASSWORD_META),
          loader: guardLoader(ROUTE_NAMES.changePassword, CHANGE_PASSWORD_META),
          lazy: async () => ({ Component: (await withAntdLocale(() => import('./change-password-route'))).default }),
        },
        {
          id: ROUTE_NAMES.notFound,
          path: '*',
          handle: handleOf(ROUTE_NAMES.notFound, { ...PUBLIC_META, locale: 'menu.notFound' }),
          loader: guardLoader(ROUTE_NAMES.notFound, PUBLIC_META),
          lazy: async () => ({ Component: (await withAntdLocale(() => import('./not-found-route'))).default }),
        },
      ],
    },
  ];
}
