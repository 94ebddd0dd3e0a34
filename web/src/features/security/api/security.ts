import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ExportFormat } from '@/components/export-buttons/export-buttons';
import type { PagePosition } from '@/lib/cursor-pages';
import { downloadFile, stampedFileName } from '@/lib/download';
import { type ApiSchema, post } from '@/lib/request';

export const SECURITY_LIST_URL = '/adminapi/security/list';
export const SECURITY_EXPORT_URL = '/adminapi/security/export';
export const SECURITY_KINDS_URL = '/adminapi/security/kinds';

export type SecurityEvent = ApiSchema<'SecurityEvent'>;
export type SecurityPage = ApiSchema<'SecurityListResponse'>;
export type SecurityKind = ApiSchema<'SecurityKind'>;

export interface SecurityFilters {
  kind?: string;
  user?: string;
  address?: string;
  /** Administrators: one merchant's history. */
  merchantId?: number;
  startTime?: string;
  endTime?: string;
}

export interface SecurityQuery {
  kind?: string;
  user?: string;
  address?: string;
  merchant_id?: number;
  start_time?: string;
  end_time?: string;
}

/** Filters → the API's filters (list body and export query); empty ones are left out. */
export function toSecurityQuery(filters: SecurityFilters): SecurityQuery {
  const query: SecurityQuery = {};
  if (filters.kind) query.kind = filters.kind;
  const user = filters.user?.trim();
  if (user) query.user = user;
  const address = filters.address?.trim();
  if (address) query.address = address;
  if (typeof filters.merchantId === 'number' && filters.merchantId > 0) query.merchant_id = filters.merchantId;
  if (filters.startTime) query.start_time = filters.startTime;
  if (filters.endTime) query.end_time = filters.endTime;
  return query;
}

export type SecurityListRequest = SecurityQuery & PagePosition & { page_size: number };

/** POST /adminapi/security/list (owners; administrators any merchant's): newest first. */
export function getSecurityEvents(body: SecurityListRequest): Promise<SecurityPage> {
  return post(SECURITY_LIST_URL, body);
}

export const securityEventsQueryOptions = (body: SecurityListRequest, locale: string) =>
  queryOptions({
    queryKey: ['security-events', locale, body],
    queryFn: () => getSecurityEvents(body),
    placeholderData: keepPreviousData,
  });

export function useSecurityEvents(body: SecurityListRequest, locale: string) {
  return useQuery(securityEventsQueryOptions(body, locale));
}

/** POST /adminapi/security/kinds: every kind with its name in the console's language. */
export function getSecurityKinds(): Promise<SecurityKind[]> {
  return post(SECURITY_KINDS_URL, {});
}

export const securityKindsQueryOptions = (locale: string) =>
  queryOptions({ queryKey: ['security-kinds', locale], queryFn: getSecurityKinds, staleTime: Infinity });

export function useSecurityKinds(locale: string) {
  return useQuery(securityKindsQueryOptions(locale));
}

/** GET /adminapi/security/export with the current filters. */
export function exportSecurityEvents(query: SecurityQuery, format: ExportFormat): Promise<void> {
  return downloadFile(SECURITY_EXPORT_URL, { ...query, format }, stampedFileName('security-history', format));
}
