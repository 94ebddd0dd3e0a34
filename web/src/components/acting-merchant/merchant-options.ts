import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiSchema, post } from '@/lib/request';

export const MERCHANT_OPTIONS_URL = '/adminapi/admin/merchant/list';
export const MERCHANT_OPTIONS_PAGE_SIZE = 20;

/** The merchant picker shows a name and a mid of the list's rows. */
export type MerchantOption = Pick<ApiSchema<'MerchantFigures'>, 'merchant_id' | 'name'>;

/** POST /adminapi/admin/merchant/list (administrators): merchants whose name holds `keyword`, or whose mid it is. */
export function searchMerchants(keyword: string): Promise<ApiSchema<'MerchantListResponse'>> {
  const trimmed = keyword.trim();
  return post(MERCHANT_OPTIONS_URL, {
    ...(trimmed ? { keyword: trimmed } : {}),
    page: 1,
    page_size: MERCHANT_OPTIONS_PAGE_SIZE,
  });
}

export const merchantSearchQueryOptions = (keyword: string) =>
  queryOptions({
    queryKey: ['acting-merchant-options', keyword.trim()],
    queryFn: () => searchMerchants(keyword),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

export function useMerchantSearch(keyword: string, enabled: boolean) {
  return useQuery({ ...merchantSearchQueryOptions(keyword), enabled });
}
