/** Order states, kinds and carriers as the API names them, with their display colours. */
export type OrderStatus = 0 | 1 | 2 | 3 | 4 | 5;
export type OrderKind = 'ordinary' | 'card' | 'behalf';

/** 0 pending, 1 processing, 2 success, 3 failure, 4 manual review, 5 reversed (冲正: a success
 * taken back afterwards, the price refunded). */
export const ORDER_STATUSES: readonly OrderStatus[] = [0, 1, 2, 3, 4, 5];
export const FINAL_STATUSES: readonly number[] = [2, 3, 5];
/** The status of a success reversed afterwards. */
export const REVERSED_STATUS = 5;

export const STATUS_COLORS: Record<number, string> = {
  0: 'default',
  1: 'processing',
  2: 'success',
  3: 'error',
  4: 'warning',
  5: 'magenta',
};

/** i18n key of a status: common.status.2 → 成功 / Success. */
export const statusKey = (status: number) => `common.status.${status}`;
/** i18n key of a carrier: common.carrier.mobile → 中国移动 / China Mobile. */
export const carrierKey = (carrier: string) => `common.carrier.${carrier}`;

export interface DurationUnits {
  s: string;
  min: string;
  h: string;
  d: string;
}

/** The duration units in the current language (秒 / 分 / 小时 / 天). */
export const durationUnits = (t: (key: string) => string): DurationUnits => ({
  s: t('common.unit.s'),
  min: t('common.unit.min'),
  h: t('common.unit.h'),
  d: t('common.unit.d'),
});

/**
 * A duration from milliseconds in the two largest units that matter: "93.6 s" under a
 * minute, "12 min 3 s" under an hour, "11 h 3 min" under a day, "2 d 4 h" beyond (an order
 * resolved by hand can wait days; "663 min 35 s" reads badly). '-' while in flight.
 */
export function formatDuration(ms: number | null | undefined, units: DurationUnits): string {
  if (ms === null || ms === undefined) return '-';
  const totalTenths = Math.round(ms / 100);
  if (totalTenths < 600) return `${(totalTenths / 10).toFixed(1)} ${units.s}`;
  const seconds = Math.round(ms / 1000);
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} ${units.min} ${seconds % 60} ${units.s}`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} ${units.h} ${minutes % 60} ${units.min}`;
  return `${Math.floor(hours / 24)} ${units.d} ${hours % 24} ${units.h}`;
}

/** The failure reasons the server gives as codes (`order.failure.<name>`); `card_not_delivered`
 * is only an attempt's answer (a card order's success without its card). */
const FAILURE_REASONS = new Set([
  'carrier_refused',
  'marked_by_administrator',
  'no_channel',
  'channel_declined',
  'card_not_delivered',
]);

/**
 * Why an order failed, in the console's language: a known code through i18n, an
 * administrator's own words (no code) as written.
 */
export function failureReasonText(
  order: { failure_reason?: string | null; failure_reason_code?: string | null },
  t: (key: string) => string,
): string {
  const name = order.failure_reason_code?.replace(/^order\.failure\./, '');
  if (name && FAILURE_REASONS.has(name)) return t(`common.failureReason.${name}`);
  return order.failure_reason ?? '';
}

interface Region {
  province?: string | null;
  city?: string | null;
  province_en?: string | null;
  city_en?: string | null;
}

/**
 * 归属地 of an order: "广东 深圳" (as stored at placement), a municipality once ("北京"), "-"
 * when unknown; in English (`english`) "Shenzhen, Guangdong" when the server gave the names.
 */
export function regionText(order: Region, english = false): string {
  if (english && order.province_en) {
    const city = order.city_en && order.city_en !== order.province_en ? order.city_en : null;
    return city ? `${city}, ${order.province_en}` : order.province_en;
  }
  if (!order.province) return '-';
  return !order.city || order.city === order.province ? order.province : `${order.province} ${order.city}`;
}
