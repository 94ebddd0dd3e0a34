import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ExportFormat } from '@/components/export-buttons/export-buttons';
import { downloadFile, stampedFileName } from '@/lib/download';
import { idempotencyHeaders } from '@/lib/idempotency';
import { type ApiSchema, postJson } from '@/lib/request';
import type { PagePosition } from '@/lib/cursor-pages';
import type { OrderQuery } from './order-query';
import type { AccountRecord, CursorPage, OrderItem } from './types';

export const ORDER_LIST_URL = '/adminapi/order/list';
export const ORDER_EXPORT_URL = '/adminapi/order/export';
export const ORDER_DETAIL_URL = '/adminapi/order/detail';
export const ORDER_RESOLVE_URL = '/adminapi/admin/order/resolve';
export const CARD_REVEAL_URL = '/adminapi/order/card/reveal';

export type OrderListRequest = OrderQuery & PagePosition & { page_size: number };

/** POST /adminapi/order/list: one page (keyset cursor or page number). */
export function getOrderList(body: OrderListRequest): Promise<CursorPage<OrderItem>> {
  return postJson<CursorPage<OrderItem>>(ORDER_LIST_URL, body);
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

export interface TimelineEntry {
  status: number;
  status_name: string;
  note: string;
  /** An administrator's reason for a resolution by hand; empty otherwise. */
  detail: string;
  actor_id: number | null;
  /** Who made the change; null for the system. */
  actor_name: string | null;
  at: string;
}

/** One hand-over of an order to an upstream channel (administrators only). */
export type ChannelAttempt = ApiSchema<'ChannelAttemptItem'>;

export interface OrderDetail {
  order: OrderItem;
  timeline: TimelineEntry[];
  account_records: AccountRecord[];
  /** Administrators only: absent for merchants, who see results, not channels. */
  attempts?: ChannelAttempt[] | null;
}

/** POST /adminapi/order/detail: the order, its status changes and its account records. */
export function getOrderDetail(orderId: number): Promise<OrderDetail> {
  return postJson<OrderDetail>(ORDER_DETAIL_URL, { order_id: orderId });
}

export const orderDetailQueryOptions = (orderId: number) =>
  queryOptions({ queryKey: ['orders', 'detail', orderId], queryFn: () => getOrderDetail(orderId) });

export function useOrderDetail(orderId: number | null) {
  return useQuery({ ...orderDetailQueryOptions(orderId ?? 0), enabled: orderId !== null });
}

export interface CardSecret {
  card_no: string;
  card_secret: string;
}

/** POST /adminapi/order/card/reveal (the owning merchant only; audited). */
export function revealCard(orderId: number): Promise<CardSecret> {
  return postJson<CardSecret>(CARD_REVEAL_URL, { order_id: orderId });
}

export function useRevealCard() {
  return useMutation({ mutationFn: revealCard });
}

export interface ResolveRequest {
  order_id: number;
  result: 'success' | 'failure';
  serial_no?: string;
  reason?: string;
}

/**
 * POST /adminapi/admin/order/resolve (administrators): mark an on-behalf order done. A
 * failure refunds, so the call carries the submission's Idempotency-Key.
 */
export function resolveOrder({
  idempotencyKey,
  ...body
}: ResolveRequest & { idempotencyKey: string }): Promise<OrderItem> {
  return postJson<OrderItem>(ORDER_RESOLVE_URL, body, { headers: idempotencyHeaders(idempotencyKey) });
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

export const ORDER_RESOLVE_MANY_URL = '/adminapi/admin/order/resolveMany';

export interface ResolveManyRequest {
  result: 'success' | 'failure';
  reason?: string;
  /** A success needs each order's own serial number. */
  items: { order_id: number; serial_no?: string }[];
}

export interface ResolveManyResult {
  resolved: number[];
  refused: { order_id: number; msg: string }[];
}

/**
 * POST /adminapi/admin/order/resolveMany (administrators): one decision for several orders
 * of the review queue. Retrying is safe: an order already finished is refused, not refunded
 * twice, and with the submission's key a retry answers the first call's result.
 */
export function resolveMany({
  idempotencyKey,
  ...request
}: ResolveManyRequest & { idempotencyKey: string }): Promise<ResolveManyResult> {
  return postJson<ResolveManyResult>(ORDER_RESOLVE_MANY_URL, request, { headers: idempotencyHeaders(idempotencyKey) });
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
  return postJson<QuerySupplierAnswer>(QUERY_SUPPLIER_URL, body, { headers: idempotencyHeaders(idempotencyKey) });
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
  return postJson<OrderItem>(SEND_TO_CHANNEL_URL, body, { headers: idempotencyHeaders(idempotencyKey) });
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
  return postJson<RouteCandidate[]>(ROUTING_PREVIEW_URL, { product_key: productKey });
}

export const routeCandidatesQueryOptions = (productKey: string) =>
  queryOptions({ queryKey: ['orders', 'routing', productKey], queryFn: () => getRouteCandidates(productKey) });

export function useRouteCandidates(productKey: string | null) {
  return useQuery({ ...routeCandidatesQueryOptions(productKey ?? ''), enabled: productKey !== null });
}
