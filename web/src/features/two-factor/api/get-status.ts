import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '@/lib/request';
import { hasToken } from '@/lib/session';
import type { TwoFactorStatus } from './types';

export const STATUS_URL = '/adminapi/google-auth/get2FAStatus';

/** GET /adminapi/google-auth/get2FAStatus. Failures are shown by the page (its own message for the failed operation). */
export async function getTwoFactorStatus(): Promise<TwoFactorStatus> {
  const answer = await get(STATUS_URL, undefined, { quietErrors: true });
  return {
    enabled: Boolean(answer.enabled),
    enabledAt: answer.enabled_at ?? null,
    backupCodesCount: answer.backup_codes_count ?? 0,
  };
}

export const twoFactorStatusQueryKey = ['two-factor', 'status'] as const;

/**
 * Only with a session: signing out clears the cache while this page is still mounted, and
 * a refetch then would answer 50008 and open the 'Confirm logout' dialog on the login page.
 */
export const twoFactorStatusQueryOptions = () =>
  queryOptions({ queryKey: twoFactorStatusQueryKey, queryFn: getTwoFactorStatus, enabled: () => hasToken() });

export function useTwoFactorStatus() {
  return useQuery(twoFactorStatusQueryOptions());
}
