import { queryOptions, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { idempotencyHeaders } from '@/lib/idempotency';
import { FINAL_STATUSES } from '@/lib/order-labels';
import { type ApiSchema, post } from '@/lib/request';

export const PRICE_URL = '/adminapi/order/price';
export const ADD_ORDER_URL = '/adminapi/order/add';
export const ORDER_DETAIL_URL = '/adminapi/order/detail';
export const STATUS_REFRESH_MS = 2000;

export type Offer = ApiSchema<'PriceOffer'>;

export type PriceInfo = ApiSchema<'PriceResponse'>;

/** The merchant an administrator acts for; merchants send none (they act for themselves). */
const forMerchant = (merchantId?: number) => (merchantId ? { merchant_id: merchantId } : {});

/** POST /adminapi/order/price: the merchant's offers (its quotes that are on) and spendable funds. */
export function getPrice(merchantId?: number): Promise<PriceInfo> {
  return post(PRICE_URL, forMerchant(merchantId));
}

export const priceQueryOptions = (merchantId?: number) =>
  queryOptions({ queryKey: ['order-price', merchantId ?? null], queryFn: () => getPrice(merchantId) });

export function usePrice(merchantId?: number) {
  return useQuery(priceQueryOptions(merchantId));
}

/**
 * The carrier a supplier reported `account` moved away from (携号转网), or null: asked once
 * per complete number (the price call with the account names it as `ported_from`).
 */
export const portedFromQueryOptions = (account: string | null, merchantId?: number) =>
  queryOptions({
    queryKey: ['order-ported-from', merchantId ?? null, account],
    queryFn: async () =>
      (await post(PRICE_URL, { account, ...forMerchant(merchantId) }, { quietErrors: true })).ported_from ?? null,
    enabled: account !== null,
    staleTime: 60_000,
  });

export function usePortedFrom(account: string | null, merchantId?: number) {
  return useQuery(portedFromQueryOptions(account, merchantId));
}

export type AddOrderRequest = ApiSchema<'AddOrderRequest'>;

export type AddedOrder = ApiSchema<'OrderItem'>;

/**
 * POST /adminapi/order/add: place one order (charged at once). The key is the submission's
 * (lib/submission.ts): the same key with the same body places nothing a second time.
 */
export function addOrder({
  idempotencyKey,
  ...body
}: AddOrderRequest & { idempotencyKey: string }): Promise<ApiSchema<'AddOrderResponse'>> {
  return post(ADD_ORDER_URL, body, { quietErrors: false, headers: idempotencyHeaders(idempotencyKey) });
}

export function useAddOrder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: addOrder,
    onSuccess: () => client.invalidateQueries({ queryKey: ['order-price'] }),
  });
}

/** POST /adminapi/order/detail, only the order. */
export async function getAddedOrder(orderId: number): Promise<AddedOrder> {
  const detail = await post(ORDER_DETAIL_URL, { order_id: orderId });
  return detail.order;
}

export const addedOrderQueryOptions = (orderId: number) =>
  queryOptions({
    queryKey: ['added-order', orderId],
    queryFn: () => getAddedOrder(orderId),
    // Refresh until the order is final (success or failure).
    refetchInterval: (query) =>
      query.state.data && FINAL_STATUSES.includes(query.state.data.status) ? false : STATUS_REFRESH_MS,
  });

/** The orders placed on this page, each refreshed until final. */
export function useAddedOrders(orderIds: number[]) {
  return useQueries({ queries: orderIds.map((id) => addedOrderQueryOptions(id)) });
}

export const SEGMENT_LOOKUP_URL = '/adminapi/segment/lookup';

export type NumberSegment = ApiSchema<'NumberSegment'>;

/** POST /adminapi/segment/lookup: the province, city and carrier of a number's first seven digits. */
export function lookupSegment(prefix: string): Promise<NumberSegment> {
  // Quiet: an unknown prefix (404) only leaves the hint out; the order itself is checked on submit.
  return post(SEGMENT_LOOKUP_URL, { phone: prefix }, { quietErrors: true });
}

/**
 * The segment of `prefix` (7 digits, or null while fewer are typed). Keyed by the prefix, so
 * typing the last four digits asks nothing more; the table changes rarely, so an answer is
 * kept for the page's life.
 */
export function useSegmentLookup(prefix: string | null) {
  return useQuery({
    queryKey: ['segment-lookup', prefix],
    queryFn: () => lookupSegment(prefix ?? ''),
    enabled: prefix !== null,
    staleTime: Infinity,
    retry: false,
  });
}
