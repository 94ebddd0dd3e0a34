import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ExportFormat } from '@/components/export-buttons/export-buttons';
import type { PagePosition } from '@/lib/cursor-pages';
import { downloadFile, stampedFileName } from '@/lib/download';
import { type ApiSchema, post } from '@/lib/request';

export const ACCOUNT_LIST_URL = '/adminapi/finance/account/list';
export const ACCOUNT_EXPORT_URL = '/adminapi/finance/account/export';

export const ACCOUNT_TYPES = ['balance', 'credit'] as const;
export const CHANGE_TYPES = [
  'order_debit',
  'refund',
  'topup',
  'credit_granted',
  'repayment',
  'adjustment',
  'reversal_refund',
] as const;

export type AccountRecord = ApiSchema<'AccountRecord'>;

export interface AccountFilters {
  accountType?: string;
  changeType?: string;
  orderNo?: string;
  orderId?: number;
  startTime?: string;
  endTime?: string;
  merchantId?: number;
}

export interface AccountQuery {
  account_type?: string;
  change_type?: string;
  order_no?: string;
  order_id?: number;
  start_time?: string;
  end_time?: string;
  merchant_id?: number;
}

/** Filters → the log filters of the API (list body and export query). */
export function toAccountQuery(filters: AccountFilters): AccountQuery {
  const query: AccountQuery = {};
  if (filters.accountType) query.account_type = filters.accountType;
  if (filters.changeType) query.change_type = filters.changeType;
  const orderNo = filters.orderNo?.trim();
  if (orderNo) query.order_no = orderNo;
  if (typeof filters.orderId === 'number') query.order_id = filters.orderId;
  if (filters.startTime) query.start_time = filters.startTime;
  if (filters.endTime) query.end_time = filters.endTime;
  if (typeof filters.merchantId === 'number') query.merchant_id = filters.merchantId;
  return query;
}

export type AccountPage = ApiSchema<'LogListResponse'>;

export type AccountListRequest = AccountQuery & PagePosition & { page_size: number };

/** POST /adminapi/finance/account/list */
export function getAccountRecords(body: AccountListRequest): Promise<AccountPage> {
  return post(ACCOUNT_LIST_URL, body);
}

export const accountRecordsQueryOptions = (body: AccountListRequest) =>
  queryOptions({
    queryKey: ['account-records', body],
    queryFn: () => getAccountRecords(body),
    placeholderData: keepPreviousData,
  });

export function useAccountRecords(body: AccountListRequest) {
  return useQuery(accountRecordsQueryOptions(body));
}

/** GET /adminapi/finance/account/export with the current filters. */
export function exportAccountRecords(query: AccountQuery, format: ExportFormat): Promise<void> {
  return downloadFile(ACCOUNT_EXPORT_URL, { ...query, format }, stampedFileName('account-records', format));
}
