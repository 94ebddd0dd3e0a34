import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ExportFormat } from '@/components/export-buttons/export-buttons';
import { downloadFile, stampedFileName } from '@/lib/download';
import { type ApiSchema, post } from '@/lib/request';

export const CHANNEL_LIST_URL = '/adminapi/admin/channel/list';
export const RECONCILE_URL = '/adminapi/admin/channel/reconcile';
export const RECONCILE_EXPORT_URL = '/adminapi/admin/channel/reconcile/export';

export type Reconciliation = ApiSchema<'Reconciliation'>;
export type ReconcileLine = ApiSchema<'ReconcileLine'>;
export type ReconcileKind = ApiSchema<'ReconcileKind'>;
export type ReconcileChannel = Pick<ApiSchema<'ChannelItem'>, 'id' | 'code' | 'name' | 'adapter'>;

/** The kinds a difference can be, in the order the server lists them. */
export const DIFFERENCE_KINDS: Exclude<ReconcileKind, 'matched'>[] = [
  'missing_ours',
  'missing_theirs',
  'amount_mismatch',
  'status_mismatch',
  'reversed',
];

export type KindFilter = 'all' | Exclude<ReconcileKind, 'matched'>;

export interface ReconcileQuery {
  channel_id: number;
  /** The Beijing day, YYYY-MM-DD. */
  date: string;
}

/** POST /adminapi/admin/channel/list, reduced to what choosing a channel needs. */
export async function getReconcileChannels(): Promise<ReconcileChannel[]> {
  const items = await post(CHANNEL_LIST_URL);
  return items.map(({ id, code, name, adapter }) => ({ id, code, name, adapter }));
}

export const reconcileChannelsQueryOptions = () =>
  queryOptions({ queryKey: ['reconcile-channels'], queryFn: getReconcileChannels, staleTime: 60_000 });

export function useReconcileChannels() {
  return useQuery(reconcileChannelsQueryOptions());
}

/**
 * POST /adminapi/admin/channel/reconcile. Quiet: a supplier's refusal is shown on the page,
 * where the administrator reads it, rather than as a passing toast.
 */
export function runReconciliation(query: ReconcileQuery): Promise<Reconciliation> {
  return post(RECONCILE_URL, query, { quietErrors: true });
}

/** A run is asked for explicitly (each one fetches the supplier's statement): no retries, no refetch on focus. */
export const reconciliationQueryOptions = (query: ReconcileQuery, run: number) =>
  queryOptions({
    queryKey: ['reconciliation', query, run],
    queryFn: () => runReconciliation(query),
    retry: false,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

/** The run numbered `run` of `query`; nothing before the first run (query null). */
export function useReconciliation(query: ReconcileQuery | null, run: number) {
  return useQuery({
    ...reconciliationQueryOptions(query ?? { channel_id: 0, date: '' }, run),
    enabled: query !== null,
  });
}

/** GET /adminapi/admin/channel/reconcile/export: every line, differences first. */
export function exportReconciliation(query: ReconcileQuery, format: ExportFormat, code: string): Promise<void> {
  return downloadFile(
    RECONCILE_EXPORT_URL,
    { ...query, format },
    stampedFileName(`reconcile-${code}-${query.date}`, format),
  );
}

/** The differences of one kind, or all of them. */
export function filterDifferences(lines: readonly ReconcileLine[], kind: KindFilter): ReconcileLine[] {
  return kind === 'all' ? [...lines] : lines.filter((line) => line.kind === kind);
}

/** How many differences there are in all. */
export function differenceCount(result: Reconciliation): number {
  const { counts } = result;
  return (
    counts.missing_ours + counts.missing_theirs + counts.amount_mismatch + counts.status_mismatch + counts.reversed
  );
}

/** The colour of a kind's tag: missing lines are the costly ones. */
export function kindColor(kind: ReconcileKind): string {
  switch (kind) {
    case 'matched':
      return 'success';
    case 'missing_ours':
      return 'error';
    case 'missing_theirs':
      return 'warning';
    default:
      return 'processing';
  }
}

/** Net amount the two sides differ by, fen: the supplier's total minus ours. */
export function amountGap(result: Reconciliation): number {
  return result.theirs.amount_fen - result.ours.amount_fen;
}
