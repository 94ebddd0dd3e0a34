/**
 * Counts administrators see on menu entries: work waiting for them. Lives under the
 * certifications query key, so a review (which invalidates that key) updates the badge.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { ApiSchema } from './api-paths';
import { get } from './request';
import { hasToken } from './session';

export const CERTIFICATION_PENDING_URL = '/adminapi/certification/pendingCount';
export const BADGE_REFRESH_MS = 30_000;

/** GET /adminapi/certification/pendingCount (administrators only). */
export function getPendingCertifications(): Promise<ApiSchema<'PendingCount'>> {
  // Quiet: a badge that fails to load is simply not shown; no toast over the page.
  return get(CERTIFICATION_PENDING_URL, undefined, { quietErrors: true });
}

export const pendingCertificationsQueryOptions = () =>
  queryOptions({
    queryKey: ['certifications', 'pending-count'],
    queryFn: getPendingCertifications,
    refetchInterval: BADGE_REFRESH_MS,
  });

/** Menu entry name → count, for the administrator's menu. Empty for everyone else. */
export function useMenuBadges(isAdmin: boolean): Record<string, number> {
  const pending = useQuery({ ...pendingCertificationsQueryOptions(), enabled: isAdmin && hasToken() });
  const count = pending.data?.pending ?? 0;
  return useMemo(() => {
    const badges: Record<string, number> = {};
    if (isAdmin) badges.Certifications = count;
    return badges;
  }, [isAdmin, count]);
}
