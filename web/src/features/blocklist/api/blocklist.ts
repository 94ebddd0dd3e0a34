/**
 * The platform's blocklist (风控黑名单, docs/api.md "Blocklist"): numbers and prefixes
 * administrators bar from top-ups, each with a reason; added, imported, removed, exported.
 */
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ExportFormat } from '@/components/export-buttons/export-buttons';
import { downloadFile, stampedFileName } from '@/lib/download';
import { type ApiSchema, post } from '@/lib/request';

export const BLOCKLIST_LIST_URL = '/adminapi/admin/blocklist/list';
export const BLOCKLIST_ADD_URL = '/adminapi/admin/blocklist/add';
export const BLOCKLIST_DELETE_URL = '/adminapi/admin/blocklist/delete';
export const BLOCKLIST_IMPORT_URL = '/adminapi/admin/blocklist/import';
export const BLOCKLIST_EXPORT_URL = '/adminapi/admin/blocklist/export';

export type BlockedNumber = ApiSchema<'BlockedNumber'>;
export type BlocklistPage = ApiSchema<'BlocklistPage'>;

const BLOCKLIST_KEY = ['blocklist'] as const;

/** POST /adminapi/admin/blocklist/list: newest first; `pattern` keeps entries starting with it. */
export function getBlocklist(pattern: string, page: number, pageSize: number): Promise<BlocklistPage> {
  return post(BLOCKLIST_LIST_URL, { ...(pattern ? { pattern } : {}), page, page_size: pageSize });
}

export const blocklistQueryOptions = (pattern: string, page: number, pageSize: number) =>
  queryOptions({
    queryKey: [...BLOCKLIST_KEY, pattern, page, pageSize],
    queryFn: () => getBlocklist(pattern, page, pageSize),
    placeholderData: keepPreviousData,
  });

export function addBlock(body: ApiSchema<'BlockRequest'>): Promise<BlockedNumber> {
  return post(BLOCKLIST_ADD_URL, body);
}

export function removeBlock(id: number): Promise<null> {
  return post(BLOCKLIST_DELETE_URL, { id });
}

export function importBlocklist(text: string): Promise<ApiSchema<'BlockImportResult'>> {
  return post(BLOCKLIST_IMPORT_URL, { text });
}

export function exportBlocklist(format: ExportFormat): Promise<void> {
  return downloadFile(BLOCKLIST_EXPORT_URL, { format }, stampedFileName('blocklist', format));
}

/** A change to the list refreshes it. */
export function useBlocklistChange<TRequest, TResult>(call: (request: TRequest) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => void client.invalidateQueries({ queryKey: BLOCKLIST_KEY }),
  });
}
