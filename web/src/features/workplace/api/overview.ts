import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiSchema, post } from '@/lib/request';
import { hasToken } from '@/lib/session';

export const OVERVIEW_URL = '/adminapi/finance/overview';
export const MERCHANT_LIST_URL = '/adminapi/admin/merchant/list';
export const OVERVIEW_DAYS = 7;

export type OverviewDay = ApiSchema<'DayCount'>;

export type Overview = ApiSchema<'Overview'>;

/** POST /adminapi/finance/overview: a merchant's figures (admins without merchant_id: the platform's sums). */
export function getOverview(merchantId?: number): Promise<Overview> {
  return post(OVERVIEW_URL, { days: OVERVIEW_DAYS, ...(merchantId ? { merchant_id: merchantId } : {}) });
}

export const overviewQueryOptions = (merchantId?: number) =>
  queryOptions({
    queryKey: ['finance-overview', merchantId ?? null],
    queryFn: () => getOverview(merchantId),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });

export function useOverview(merchantId?: number, enabled = true) {
  // Signing out empties the cache while the page is still mounted: a re-render then must not
  // ask again without a session (its 50008 would open the 'Confirm logout' dialog).
  return useQuery({ ...overviewQueryOptions(merchantId), enabled: enabled && hasToken() });
}

export type MerchantOption = Pick<ApiSchema<'MerchantFigures'>, 'merchant_id' | 'name'>;

/** POST /adminapi/admin/merchant/list (administrators): the picker's choices. */
export function getMerchantOptions(): Promise<ApiSchema<'MerchantListResponse'>> {
  return post(MERCHANT_LIST_URL, { page: 1, page_size: 100 });
}

export const merchantOptionsQueryOptions = () =>
  queryOptions({ queryKey: ['workplace-merchants'], queryFn: getMerchantOptions });

export function useMerchantOptions(enabled: boolean) {
  return useQuery({ ...merchantOptionsQueryOptions(), enabled });
}
