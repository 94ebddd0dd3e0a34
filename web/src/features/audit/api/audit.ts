import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ExportFormat } from '@/components/export-buttons/export-buttons';
import type { PagePosition } from '@/lib/cursor-pages';
import { downloadFile, stampedFileName } from '@/lib/download';
import { type ApiSchema, post } from '@/lib/request';

export const AUDIT_LIST_URL = '/adminapi/admin/audit/list';
export const AUDIT_EXPORT_URL = '/adminapi/admin/audit/export';
export const AUDIT_ACTIONS_URL = '/adminapi/admin/audit/actions';

export type AuditEvent = ApiSchema<'AuditEvent'>;
export type AuditPage = ApiSchema<'AuditListResponse'>;
export type AuditAction = ApiSchema<'AuditAction'>;

export interface AuditFilters {
  actor?: string;
  action?: string;
  target?: string;
  startTime?: string;
  endTime?: string;
}

export interface AuditQuery {
  actor?: string;
  action?: string;
  target?: string;
  start_time?: string;
  end_time?: string;
}

/** Filters → the API's filters (list body and export query); empty ones are left out. */
export function toAuditQuery(filters: AuditFilters): AuditQuery {
  const query: AuditQuery = {};
  const actor = filters.actor?.trim();
  if (actor) query.actor = actor;
  if (filters.action) query.action = filters.action;
  const target = filters.target?.trim();
  if (target) query.target = target;
  if (filters.startTime) query.start_time = filters.startTime;
  if (filters.endTime) query.end_time = filters.endTime;
  return query;
}

export type AuditListRequest = AuditQuery & PagePosition & { page_size: number };

/** POST /adminapi/admin/audit/list (administrators): newest first. */
export function getAuditEvents(body: AuditListRequest): Promise<AuditPage> {
  return post(AUDIT_LIST_URL, body);
}

export const auditEventsQueryOptions = (body: AuditListRequest, locale: string) =>
  queryOptions({
    queryKey: ['audit-events', locale, body],
    queryFn: () => getAuditEvents(body),
    placeholderData: keepPreviousData,
  });

export function useAuditEvents(body: AuditListRequest, locale: string) {
  return useQuery(auditEventsQueryOptions(body, locale));
}

/** POST /adminapi/admin/audit/actions: every action code with its name in the console's language. */
export function getAuditActions(): Promise<AuditAction[]> {
  return post(AUDIT_ACTIONS_URL, {});
}

export const auditActionsQueryOptions = (locale: string) =>
  queryOptions({ queryKey: ['audit-actions', locale], queryFn: getAuditActions, staleTime: Infinity });

export function useAuditActions(locale: string) {
  return useQuery(auditActionsQueryOptions(locale));
}

/** GET /adminapi/admin/audit/export with the current filters. */
export function exportAuditEvents(query: AuditQuery, format: ExportFormat): Promise<void> {
  return downloadFile(AUDIT_EXPORT_URL, { ...query, format }, stampedFileName('audit-log', format));
}
