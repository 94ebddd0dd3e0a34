import type { HydrationState } from 'react-router';
import { LOGIN_PATH, ROUTE_NAMES } from './routes/route-names';

/**
 * The guard's answer known before any loader runs: without a session the login page is
 * always allowed (the guards' first step), so its loader's result (nothing) is given up front and the
 * first render shows the form instead of a loading placeholder followed by a second pass.
 * Every other start (a session, another page) runs the loaders as usual.
 */
export function initialHydration(hash: string, signedIn: boolean): HydrationState | undefined {
  const path = hash.replace(/^#/, '').split('?')[0];
  if (path !== LOGIN_PATH || signedIn) return undefined;
  return { loaderData: { [ROUTE_NAMES.login]: null } };
}
