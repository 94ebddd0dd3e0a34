import { redirect, type LoaderFunctionArgs } from 'react-router';
import type { RouteMeta } from '@/lib/route-meta';
import { NOT_FOUND_PATH } from '../routes/route-names';
import { pathOfRouteName } from '../routes/route-table';
import { guardDependencies } from './guard-dependencies';
import { hrefOfTarget, resolveNavigation, type GuardDependencies } from './route-access';

/** A route loader that runs the guards before the route renders. */
export function guardLoader(name: string, meta: RouteMeta, deps: GuardDependencies = guardDependencies) {
  return async ({ request }: LoaderFunctionArgs) => {
    const query = Object.fromEntries(new URL(request.url).searchParams.entries());
    const decision = await resolveNavigation({ name, meta, query }, deps);
    if (decision.kind === 'redirect') {
      if (decision.forbidden) deps.tellForbidden?.();
      return redirect(hrefOfTarget(decision.to, pathOfRouteName, NOT_FOUND_PATH));
    }
    return null;
  };
}
