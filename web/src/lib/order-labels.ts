/** Order states, kinds and carriers as the API names them, with their display colours. */
export type OrderStatus = 0 | 1 | 2 | 3 | 4;
export type OrderKind = 'ordinary' | 'card' | 'behalf';

/** 0 pending, 1 processing, 2 success, 3 failure, 4 manual review. */
export const ORDER_STATUSES: readonly OrderStatus[] = [0, 1, 2, 3, 4];
export const FINAL_STATUSES: readonly number[] = [2, 3];

export const STATUS_COLORS: Record<number, string> = {
  0: 'default',
  1: 'processing',
  2: 'success',
  3: 'error',
  4: 'warning',
};

/** i18n key of a status: orderCommon.status.2 → 成功 / Success. */
export const statusKey = (status: number) => `orderCommon.status.${status}`;
/** i18n key of a carrier: orderCommon.carrier.mobile → 中国移动 / China Mobile. */
export const carrierKey = (carrier: string) => `orderCommon.carrier.${carrier}`;

/** "93.6 s", "12 min 3 s" style duration from milliseconds (null while in flight). */
export function formatDuration(ms: number | null | undefined, units: { s: string; min: string }): string {
  if (ms === null || ms === undefined) return '-';
  const totalTenths = Math.round(ms / 100);
  if (totalTenths < 600) return `${(totalTenths / 10).toFixed(1)} ${units.s}`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} ${units.min} ${seconds % 60} ${units.s}`;
}
