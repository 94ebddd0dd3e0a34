import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ExportFormat } from '@/components/export-buttons/export-buttons';
import { downloadFile, stampedFileName } from '@/lib/download';
import { idempotencyHeaders } from '@/lib/idempotency';
import { type ApiSchema, post } from '@/lib/request';
import type { PagePosition } from '@/lib/cursor-pages';
import type { OrderQuery } from './order-query';
import type { OrderItem, OrderPage } from './types';

export const ORDER_LIST_URL = '/adminapi/order/list';
export const ORDER_EXPORT_URL = '/adminapi/order/export';
export const ORDER_DETAIL_URL = '/adminapi/order/detail';
export const ORDER_RESOLVE_URL = '/adminapi/admin/order/resolve';
export const CARD_REVEAL_URL = '/adminapi/order/card/reveal';

export type OrderListRequest = OrderQuery & PagePosition & { page_size: number };

/** POST /adminapi/order/list: one page (keyset cursor or page number). */
export function getOrderList(body: OrderListRequest): Promise<OrderPage> {
  return post(ORDER_LIST_URL, body);
}

export const orderListQueryOptions = (body: OrderListRequest) =>
  queryOptions({
    queryKey: ['orders', 'list', body],
    queryFn: () => getOrderList(body),
    placeholderData: keepPreviousData,
  });

export function useOrderList(body: OrderListRequest) {
  return useQuery(orderListQueryOptions(body));
}

export type TimelineEntry = ApiSchema<'TimelineEntry'>;

/** One hand-over of an order to an upstream channel (administrators only). */
export type ChannelAttempt = ApiSchema<'ChannelAttemptItem'>;

export type OrderDetail = ApiSchema<'OrderDetail'>;

/** POST /adminapi/order/detail: the order, its status changes and its account records. */
export function getOrderDetail(orderId: number): Promise<OrderDetail> {
  return post(ORDER_DETAIL_URL, { order_id: orderId });
}

export const orderDetailQueryOptions = (orderId: number) =>
  queryOptions({ queryKey: ['orders', 'detail', orderId], queryFn: () => getOrderDetail(orderId) });

export function useOrderDetail(orderId: number | null) {
  return useQuery({ ...orderDetailQueryOptions(orderId ?? 0), enabled: orderId !== null });
}

export type CardSecret = ApiSchema<'RevealedCard'>;

/** POST /adminapi/order/card/reveal (the owning merchant only; audited). */
export function revealCard(orderId: number): Promise<CardSecret> {
  return post(CARD_REVEAL_URL, { order_id: orderId });
}

export function useRevealCard() {
  return useMutation({ mutationFn: revealCard });
}

export type ResolveRequest = ApiSchema<'ResolveRequest'>;

/**
 * POST /adminapi/admin/order/resolve (administrators): mark an on-behalf order done. A
 * failure refunds, so the call carries the submission's Idempotency-Key.
 */
export function resolveOrder({
  idempotencyKey,
  ...body
}: ResolveRequest & { idempotencyKey: string }): Promise<OrderItem> {
  return post(ORDER_RESOLVE_URL, body, { headers: idempotencyHeaders(idempotencyKey) });
}

export function useResolveOrder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: resolveOrder,
    onSuccess: () => client.invalidateQueries({ queryKey: ['orders'] }),
  });
}

/** GET /adminapi/order/export with the list's filters; saved as a file. */
export function exportOrders(query: OrderQuery, format: ExportFormat): Promise<void> {
  return downloadFile(ORDER_EXPORT_URL, { ...query, format }, stampedFileName(`orders-${query.kind}`, format));
}

export const ORDER_REVERSE_URL = '/adminapi/admin/order/reverse';

export type ReverseRequest = ApiSchema<'ReverseRequest'>;

/**
 * POST /adminapi/admin/order/reverse (administrators): reverse (冲正) a successful order and
 * refund its price once. A repeat is refused (409), so no key is needed to retry safely.
 */
export function reverseOrder(body: ReverseRequest): Promise<OrderItem> {
  return post(ORDER_REVERSE_URL, body);
}

export function useReverseOrder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: reverseOrder,
    onSuccess: () => client.invalidateQueries({ queryKey: ['orders'] }),
  });
}

export const ORDER_RESOLVE_MANY_URL = '/adminapi/admin/order/resolveMany';

export type ResolveManyRequest = ApiSchema<'ResolveManyRequest'>;

export type ResolveManyResult = ApiSchema<'ResolveManyResponse'>;

/**
 * POST /adminapi/admin/order/resolveMany (administrators): one decision for several orders
 * of the review queue. Retrying is safe: an order already finished is refused, not refunded
 * twice, and with the submission's key a retry answers the first call's result.
 */
export function resolveMany({
  idempotencyKey,
  ...request
}: ResolveManyRequest & { idempotencyKey: string }): Promise<ResolveManyResult> {
  return post(ORDER_RESOLVE_MANY_URL, request, { headers: idempotencyHeaders(idempotencyKey) });
}

export function useResolveMany() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: resolveMany,
    onSuccess: () => client.invalidateQueries({ queryKey: ['orders'] }),
  });
}

export const QUERY_SUPPLIER_URL = '/adminapi/admin/order/querySupplier';
export const SEND_TO_CHANNEL_URL = '/adminapi/admin/order/sendToChannel';
export const ROUTING_PREVIEW_URL = '/adminapi/admin/channel/routing';

/** What the supplier answered an administrator's query, and the order after it. */
export type QuerySupplierAnswer = ApiSchema<'QuerySupplierAnswer'>;
/** One channel supplying a product, as the routing preview lists it. */
export type RouteCandidate = ApiSchema<'RouteItem'>;

/**
 * POST /adminapi/admin/order/querySupplier (administrators): ask the supplier of an order in
 * review where its open attempt stands; the answer settles the order as the worker would.
 */
export function querySupplier({
  idempotencyKey,
  ...body
}: {
  order_id: number;
  idempotencyKey: string;
}): Promise<QuerySupplierAnswer> {
  return post(QUERY_SUPPLIER_URL, body, { headers: idempotencyHeaders(idempotencyKey) });
}

export function useQuerySupplier() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: querySupplier,
    onSuccess: () => client.invalidateQueries({ queryKey: ['orders'] }),
  });
}

/**
 * POST /adminapi/admin/order/sendToChannel (administrators): hand an order in review that no
 * channel may still top up to a channel now (the routing's choice, or `channel_id`).
 */
export function sendToChannel({
  idempotencyKey,
  ...body
}: {
  order_id: number;
  channel_id?: number;
  idempotencyKey: string;
}): Promise<OrderItem> {
  return post(SEND_TO_CHANNEL_URL, body, { headers: idempotencyHeaders(idempotencyKey) });
}

export function useSendToChannel() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: sendToChannel,
    onSuccess: () => client.invalidateQueries({ queryKey: ['orders'] }),
  });
}

/** POST /adminapi/admin/channel/routing: the channels supplying a product, candidates first. */
export function getRouteCandidates(productKey: string): Promise<RouteCandidate[]> {
  return post(ROUTING_PREVIEW_URL, { product_key: productKey });
}

export const routeCandidatesQueryOptions = (productKey: string) =>
  queryOptions({ queryKey: ['orders', 'routing', productKey], queryFn: () => getRouteCandidates(productKey) });

export function useRouteCandidates(productKey: string | null) {
  return useQuery({ ...routeCandidatesQueryOptions(productKey ?? ''), enabled: productKey !== null });
}
