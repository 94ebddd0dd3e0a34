import { queryOptions, useQuery } from '@tanstack/react-query';
import { saveBlob } from '@/lib/download';
import { type ApiSchema, get, postBlob } from '@/lib/request';
import { hasToken } from '@/lib/session';
import type { OrderQuery } from './order-query';

export const CARD_EXPORT_URL = '/adminapi/order/card/export';
export const TWO_FACTOR_STATUS_URL = '/adminapi/google-auth/get2FAStatus';
/** The saved file is 卡密-<date>.xlsx in either language. */
export const CARD_EXPORT_FILE_PREFIX = '卡密';
/** Orders one export holds at most (the server refuses more). */
export const MAX_CARD_EXPORT = 10_000;

export type CardExportRequest = ApiSchema<'CardExportRequest'>;

/** The orders of an export: the ones ticked on the list, or every one its filter finds. */
export type CardExportChoice = { orderIds: number[] } | { filter: OrderQuery };

/** 8 to 64 characters with letters and digits, as the server requires. */
export function isStrongExportPassword(password: string): boolean {
  const length = [...password].length;
  return length >= 8 && length <= 64 && /\p{L}/u.test(password) && /[0-9]/.test(password) && !/\p{Cc}/u.test(password);
}

/** 卡密-20260101.xlsx: the local date of the download. */
export function cardExportFileName(prefix: string, now = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${prefix}-${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}.xlsx`;
}

/** The request body: the password and code travel in the body only, never in an address. */
export function cardExportBody(choice: CardExportChoice, password: string, code?: string): CardExportRequest {
  const secret = { password, ...(code ? { code } : {}) };
  if ('orderIds' in choice) return { order_ids: choice.orderIds, ...secret };
  const filter = Object.fromEntries(
    Object.entries(choice.filter).filter(([key, value]) => key !== 'sort' && value !== undefined && value !== ''),
  );
  return { filter: filter as CardExportRequest['filter'], ...secret };
}

/** POST /adminapi/order/card/export: saves the encrypted workbook under `fileName`. */
export async function exportCardSecrets(body: CardExportRequest, fileName: string): Promise<void> {
  const blob = await postBlob(CARD_EXPORT_URL, body, { quietErrors: true });
  saveBlob(blob, fileName);
}

/** Whether the signed-in user has two-factor on (the export then asks for a code). */
export async function getTwoFactorOn(): Promise<boolean> {
  const answer = await get(TWO_FACTOR_STATUS_URL, undefined, { quietErrors: true });
  return Boolean(answer.enabled);
}

export const twoFactorOnQueryOptions = () =>
  queryOptions({ queryKey: ['two-factor', 'status', 'enabled'], queryFn: getTwoFactorOn, enabled: () => hasToken() });

export function useTwoFactorOn(enabled: boolean) {
  return useQuery({ ...twoFactorOnQueryOptions(), enabled: enabled && hasToken() });
}
