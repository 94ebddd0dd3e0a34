/**
 * The order filters as the form holds them, and their mapping to the API's request
 * (list body and export query parameters share the same names).
 */
import { rangeToIso } from '@/components/list-page/date-presets';
import type { FilterSchema, FilterValues } from '@/components/list-page/url-filters';
import { ORDER_STATUSES, type OrderKind } from '@/lib/order-labels';
import { PROVINCE_CODES, type ProvinceCode } from '@/lib/provinces';

/** Time-taken ranges offered by the filter, in [min, max) milliseconds. */
export const DURATION_RANGES = {
  under10s: [undefined, 10_000],
  s10to60: [10_000, 60_000],
  m1to5: [60_000, 300_000],
  over5m: [300_000, undefined],
} as const satisfies Record<string, readonly [number | undefined, number | undefined]>;
export type DurationRange = keyof typeof DURATION_RANGES;

export interface OrderFilters {
  /** The ordinary list can show other kinds too (the workplace's figures count them all). */
  kind?: OrderKind | 'all';
  status?: number;
  /** Not final yet (pending, processing, manual review) or final: the workplace's in-flight figure. */
  progress?: 'inFlight' | 'finished';
  orderType?: 'today' | 'history';
  carrier?: string;
  /** Face value in fen. */
  faceValueFen?: number;
  /** 归属地: the GB/T 2260 code of the number's province. */
  province?: ProvinceCode;
  duration?: DurationRange;
  hasSerial?: 'yes' | 'no';
  buyback?: 'buyback' | 'normal';
  merchantOrderId?: string;
  orderNo?: string;
  account?: string;
  /** Order time range, RFC 3339: [start, end). */
  startTime?: string;
  endTime?: string;
  /** Administrators only: one merchant. */
  merchantId?: number;
}

export type SortOrder = 'desc' | 'asc';

export interface OrderQuery {
  kind: OrderKind | 'all';
  sort: SortOrder;
  status?: number;
  in_flight?: boolean;
  order_type?: 'today' | 'history';
  carrier?: string;
  face_value_fen?: number;
  province?: ProvinceCode;
  duration_min_ms?: number;
  duration_max_ms?: number;
  has_serial?: boolean;
  buyback?: boolean;
  merchant_order_id?: string;
  order_no?: string;
  account?: string;
  start_time?: string;
  end_time?: string;
  merchant_id?: number;
}

const text = (value: string | undefined) => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
};

/** Filters → API fields; empty filters are left out entirely. */
export function toOrderQuery(kind: OrderKind, filters: OrderFilters, sort: SortOrder = 'desc'): OrderQuery {
  const query: OrderQuery = { kind: filters.kind ?? kind, sort };
  if (filters.status !== undefined) query.status = filters.status;
  if (filters.progress) query.in_flight = filters.progress === 'inFlight';
  if (filters.orderType) query.order_type = filters.orderType;
  if (filters.carrier) query.carrier = filters.carrier;
  if (filters.faceValueFen !== undefined) query.face_value_fen = filters.faceValueFen;
  if (filters.province !== undefined) query.province = filters.province;
  if (filters.duration) {
    const [min, max] = DURATION_RANGES[filters.duration];
    if (min !== undefined) query.duration_min_ms = min;
    if (max !== undefined) query.duration_max_ms = max;
  }
  if (filters.hasSerial) query.has_serial = filters.hasSerial === 'yes';
  if (filters.buyback) query.buyback = filters.buyback === 'buyback';
  const merchantOrderId = text(filters.merchantOrderId);
  if (merchantOrderId) query.merchant_order_id = merchantOrderId;
  const orderNo = text(filters.orderNo);
  if (orderNo) query.order_no = orderNo;
  const account = text(filters.account);
  if (account) query.account = account;
  if (filters.startTime) query.start_time = filters.startTime;
  if (filters.endTime) query.end_time = filters.endTime;
  if (filters.merchantId !== undefined) query.merchant_id = filters.merchantId;
  return query;
}

/** The order filters as they sit in the page address (see components/list-page/url-filters). */
export const ORDER_FILTER_SCHEMA: FilterSchema = {
  texts: [
    'kind',
    'progress',
    'orderType',
    'carrier',
    'duration',
    'hasSerial',
    'buyback',
    'merchantOrderId',
    'orderNo',
    'account',
  ],
  numbers: ['status', 'faceValueFen', 'province', 'merchantId'],
  ranges: ['range'],
};

const CARRIERS = ['mobile', 'unicom', 'telecom'];
const KINDS = ['all', 'ordinary', 'card', 'behalf'];

function oneOf<T extends string>(value: unknown, allowed: readonly string[]): T | undefined {
  return typeof value === 'string' && allowed.includes(value) ? (value as T) : undefined;
}

function someText(value: unknown): string | undefined {
  return typeof value === 'string' ? text(value) : undefined;
}

function number(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
}

/**
 * Form or address values → filters. Values an address may carry but the API would refuse
 * (an unknown status or carrier) are dropped, so a hand-edited link still opens a list.
 */
export function valuesToOrderFilters(values: FilterValues): OrderFilters {
  const status = number(values.status);
  const merchantId = number(values.merchantId);
  const province = number(values.province);
  const filters: OrderFilters = {
    kind: oneOf(values.kind, KINDS),
    status: status !== undefined && (ORDER_STATUSES as readonly number[]).includes(status) ? status : undefined,
    progress: oneOf(values.progress, ['inFlight', 'finished']),
    orderType: oneOf(values.orderType, ['today', 'history']),
    carrier: oneOf(values.carrier, CARRIERS),
    faceValueFen: number(values.faceValueFen),
    province: PROVINCE_CODES.find((code) => code === province),
    duration: oneOf(values.duration, Object.keys(DURATION_RANGES)),
    hasSerial: oneOf(values.hasSerial, ['yes', 'no']),
    buyback: oneOf(values.buyback, ['buyback', 'normal']),
    merchantOrderId: someText(values.merchantOrderId),
    orderNo: someText(values.orderNo),
    account: someText(values.account),
    merchantId: merchantId !== undefined && merchantId > 0 ? merchantId : undefined,
    ...rangeToIso(Array.isArray(values.range) ? values.range : null),
  };
  for (const key of Object.keys(filters) as (keyof OrderFilters)[]) {
    if (filters[key] === undefined) delete filters[key];
  }
  return filters;
}
