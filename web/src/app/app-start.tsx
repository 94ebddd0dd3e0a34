/**
 * The signed-in console's start: its texts, the router and every page behind it load from
 * here, after sign-in or straight away for a visitor with a session (main.tsx).
 */
import { StrictMode } from 'react';
import type { Root } from 'react-dom/client';
import { createHashRouter, matchRoutes } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { loadUserInfo } from '@/features/user/api/get-user-info';
import { syncDayjsLocale } from '@/lib/antd-locale';
import { currentLocale } from '@/lib/i18n';
import { hasToken } from '@/lib/session';
import { useUserStore } from '@/stores/user-store';
import { loadAppTexts } from '@/locales/app-texts';
import { hrefOfTarget, loginRedirect, postLoginHref } from './guards/route-access';
import { loadSystemInfo } from './guards/system-info-loader';
import { initialHydration } from './router';
import { LOGIN_PATH, NOT_FOUND_PATH, ROUTE_NAMES, WORKPLACE_PATH } from './routes/route-names';
import { buildRouteObjects } from './routes/route-objects';
import { preloadSignedInShell } from './routes/preload-signed-in-shell';
import { pathOfRouteName } from './routes/route-table';

/** Set once the console starts mounting: a rehearsal not yet begun is no longer worth it. */
let mounting = false;

/**
 * While the user types credentials: fetch what the first screen after sign-in needs (the
 * code of the guard's own calls comes with this module, for askGuardAhead) and rehearse its
 * antd components (layout/rehearsal). Failures are ignored: each is loaded again when needed.
 */
export function warmSignedInConsole(): void {
  preloadSignedInShell();
  const ignore = () => undefined;
  loadAppTexts(currentLocale()).catch(ignore);
  syncDayjsLocale(currentLocale()).catch(ignore);
  // Not once the console is mounting (a sign-in right after the first click, e.g. with
  // autofilled credentials): it would only compete with the real render.
  import('./layout/rehearsal').then((rehearsal) => {
    if (!mounting) rehearsal.rehearseFirstScreen();
  }, ignore);
}

/** The query of a hash address (`#/login?redirect=Monitor` → { redirect: 'Monitor' }). */
function queryOfHash(hash: string): Record<string, string> {
  const search = hash.includes('?') ? hash.slice(hash.indexOf('?') + 1) : '';
  return Object.fromEntries(new URLSearchParams(search).entries());
}

/** The path of a hash address (`#/order/list?x=1` → `/order/list`). */
const pathOfHash = (hash: string) => hash.replace(/^#/, '').split('?')[0] || '/';

/**
 * The login page shown at a deep link without a session (main.tsx takes the HTML login form
 * over wherever the visitor was going): the address becomes the one the router's guard gives
 * (`#/login?redirect=OrderList&x=1`), so sign-in returns to the deep link. Nothing changes on
 * a login address.
 */
export function showLoginAddress(): void {
  const hash = window.location.hash;
  const path = pathOfHash(hash);
  if (path === '/' || path === LOGIN_PATH) return;
  // The route the router would match, named as its guard names it (a route's id is its name).
  const matched = matchRoutes(buildRouteObjects(), path)?.at(-1)?.route.id ?? ROUTE_NAMES.notFound;
  const decision = loginRedirect({ name: matched, query: queryOfHash(hash) });
  if (decision.kind !== 'redirect') return;
  const href = hrefOfTarget(decision.to, pathOfRouteName, NOT_FOUND_PATH);
  window.history.replaceState(window.history.state, '', `#${href}`);
}

/**
 * After sign-in: what the route guard needs, asked for before the router is built rather
 * than from its guard (building it, with the console's texts and the route table, takes
 * about 20 ms). The sign-in answer brings the user info and the system information, so
 * normally nothing is asked: only the texts of the template pages, when the server has them
 * on, are loaded now. A session from elsewhere without them has the missing ones fetched
 * here. Both loaders keep one request out at a time and the guard awaits the one under way,
 * so each is asked once; a failure is left to the guard, which asks again and handles it.
 */
function askGuardAhead(): void {
  if (!useUserStore.getState().role) loadUserInfo().catch(() => undefined);
  void loadSystemInfo();
}

/**
 * Render the console into `root`. After sign-in the address becomes the `redirect` target
 * (or the workplace), and the login page stays up until that page's guard and code are
 * ready, so the next thing painted is the page itself rather than a loading screen.
 */
export async function mountConsole(root: Root, afterLogin: boolean): Promise<void> {
  mounting = true;
  if (afterLogin) {
    askGuardAhead();
    // One turn of the event loop before building the router: the requests just made
    // reached the network only once this task had ended (resource timing: 8-17 ms after
    // they were made, the router built in between; 0-8 ms with this turn).
    await new Promise((resolve) => setTimeout(resolve, 0));
    showLoginAddress();
    const target = postLoginHref(queryOfHash(window.location.hash), pathOfRouteName, WORKPLACE_PATH);
    window.history.replaceState(window.history.state, '', `#${target}`);
  }
  await loadAppTexts(currentLocale());
  const router = createHashRouter(buildRouteObjects(), {
    hydrationData: initialHydration(window.location.hash, hasToken()),
  });
  if (afterLogin && !router.state.initialized) {
    await new Promise<void>((resolve) => {
      const stop = router.subscribe((state) => {
        if (!state.initialized) return;
        stop();
        resolve();
      });
    });
  }
  root.render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
}
