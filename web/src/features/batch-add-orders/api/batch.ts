import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { downloadFile } from '@/lib/download';
import { idempotencyHeaders } from '@/lib/idempotency';
import { postForm, postJson } from '@/lib/request';

export const BATCH_PREVIEW_URL = '/adminapi/order/batch/preview';
export const BATCH_SUBMIT_URL = '/adminapi/order/batch/submit';
export const BATCH_LIST_URL = '/adminapi/order/batch/list';
export const BATCH_RESULT_URL = '/adminapi/order/batch/result';
export const BATCH_TEMPLATE_URL = '/adminapi/order/batch/template';
export const BATCH_DISCARD_URL = '/adminapi/order/batch/discard';
export const BATCH_DETAIL_URL = '/adminapi/order/batch/detail';

export interface PreviewError {
  line_no: number;
  account: string;
  product_key: string;
  merchant_order_id: string;
  reason_key: string;
  reason: string;
}

export interface BatchPreview {
  batch_id: number;
  total_rows: number;
  valid_rows: number;
  invalid_rows: number;
  total_fen: number;
  spendable_fen: number;
  /** The first 1,000 invalid lines. */
  errors: PreviewError[];
  /** Valid lines without a merchant order id repeating an account + product ordered within the day. */
  recent_duplicates: RecentDuplicate[];
  recent_duplicate_rows: number;
  /** An unsubmitted preview is removed after this. */
  expires_at: string;
}

export interface RecentDuplicate {
  line_no: number;
  account: string;
  product_key: string;
  /** The latest order of the day with this account and product (null: none). */
  order_no: string | null;
  ordered_at: string | null;
  /** The first line of the file with this account and product (null: none). */
  repeats_line_no: number | null;
}

export interface BatchSummary {
  batch_id: number;
  merchant_id: number;
  file_name: string;
  /** 0 previewed, 1 submitted. */
  status: number;
  total_rows: number;
  valid_rows: number;
  invalid_rows: number;
  /** The batch's orders, counted as of the answer. */
  placed_rows: number;
  /** Valid at preview, refused at submit. */
  failed_rows: number;
  /** Not placed: invalid at preview plus refused at submit. */
  refused_rows: number;
  /** Of the placed orders: succeeded, failed, still in progress. */
  succeeded_orders: number;
  failed_orders: number;
  in_progress_orders: number;
  total_fen: number;
  created_at: string;
  submitted_at: string | null;
  /** Previews only: when an unsubmitted preview is removed. */
  expires_at: string | null;
}

export type PreviewInput = (
  { file: File; onProgress?: (percent: number) => void } | { text: string; fileName?: string }
) & {
  /** The merchant confirms that carrier-mismatched numbers were ported. */
  allowPorted?: boolean;
  /** Administrators only: the merchant the batch is for. */
  merchantId?: number;
};

/** POST /adminapi/order/batch/preview: checks every line; charges nothing. */
export function previewBatch(input: PreviewInput): Promise<BatchPreview> {
  if ('file' in input) {
    const form = new FormData();
    if (input.merchantId) form.append('merchant_id', String(input.merchantId));
    form.append('file', input.file, input.file.name);
    if (input.allowPorted) form.append('allow_ported', 'true');
    return postForm<BatchPreview>(BATCH_PREVIEW_URL, form, {
      onUploadProgress: (event) => {
        if (input.onProgress && event.total) input.onProgress(Math.round((event.loaded * 100) / event.total));
      },
    });
  }
  return postJson<BatchPreview>(BATCH_PREVIEW_URL, {
    text: input.text,
    ...(input.fileName ? { file_name: input.fileName } : {}),
    ...(input.allowPorted ? { allow_ported: true } : {}),
    ...(input.merchantId ? { merchant_id: input.merchantId } : {}),
  });
}

export function usePreviewBatch() {
  const client = useQueryClient();
  // A preview is stored as a batch: the list shows it at once.
  return useMutation({
    mutationFn: previewBatch,
    onSuccess: () => refreshBatchLists(client),
  });
}

/** A stored batch with its preview as it was answered (to reopen it after leaving the page). */
export interface BatchDetail {
  batch: BatchSummary;
  preview: BatchPreview;
}

/** POST /adminapi/order/batch/detail: the caller's own batch (administrators: any). */
export function getBatchDetail(batchId: number): Promise<BatchDetail> {
  return postJson<BatchDetail>(BATCH_DETAIL_URL, { batch_id: batchId });
}

/**
 * After a preview, submit or discard: the batch lists are read again, a batch's detail is
 * not. A preview or discard can leave the batch the page still shows gone on the server
 * (replaced, discarded), and reading it again would be a 404; a submitted batch's detail
 * is set from the submit's answer.
 */
function refreshBatchLists(client: QueryClient) {
  return client.invalidateQueries({ queryKey: ['batches'], predicate: (query) => query.queryKey[1] !== 'detail' });
}

export const batchDetailQueryOptions = (batchId: number) =>
  queryOptions({
    queryKey: ['batches', 'detail', batchId],
    queryFn: () => getBatchDetail(batchId),
    // A batch that is gone (discarded, expired) stays gone: no retries.
    retry: false,
  });

export function useBatchDetail(batchId: number | null) {
  return useQuery({ ...batchDetailQueryOptions(batchId ?? 0), enabled: batchId !== null });
}

/** An unsubmitted preview can be submitted until it expires. */
export function isSubmittable(detail: BatchDetail, now: number): boolean {
  return detail.batch.status === 0 && Date.parse(detail.preview.expires_at) > now;
}

/** POST /adminapi/order/batch/discard: removes a preview that was not submitted. */
export function discardBatch(batchId: number): Promise<null> {
  return postJson<null>(BATCH_DISCARD_URL, { batch_id: batchId });
}

export function useDiscardBatch() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: discardBatch,
    onSuccess: () => refreshBatchLists(client),
  });
}

/**
 * POST /adminapi/order/batch/submit: places the valid lines (safe to repeat). The key is the
 * submission's (lib/submission.ts): a repeat with it answers the first call's summary.
 */
export function submitBatch({
  batchId,
  idempotencyKey,
}: {
  batchId: number;
  idempotencyKey: string;
}): Promise<BatchSummary> {
  return postJson<BatchSummary>(
    BATCH_SUBMIT_URL,
    { batch_id: batchId },
    { headers: idempotencyHeaders(idempotencyKey) },
  );
}

export function useSubmitBatch() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: submitBatch,
    onSuccess: () => refreshBatchLists(client),
  });
}

/** POST /adminapi/order/batch/list */
export function getBatchList(page: number, pageSize: number): Promise<{ list: BatchSummary[]; total: number }> {
  return postJson(BATCH_LIST_URL, { page, page_size: pageSize });
}

export const batchListQueryOptions = (page: number, pageSize: number) =>
  queryOptions({
    queryKey: ['batches', page, pageSize],
    queryFn: () => getBatchList(page, pageSize),
    placeholderData: keepPreviousData,
  });

export function useBatchList(page: number, pageSize: number) {
  return useQuery(batchListQueryOptions(page, pageSize));
}

/** GET /adminapi/order/batch/result: one CSV line per file line with its outcome. */
export function downloadBatchResult(batchId: number): Promise<void> {
  return downloadFile(BATCH_RESULT_URL, { batch_id: batchId }, `batch-${batchId}-result.csv`);
}

/** GET /adminapi/order/batch/template */
export function downloadTemplate(format: 'csv' | 'xlsx'): Promise<void> {
  return downloadFile(BATCH_TEMPLATE_URL, { format }, `batch-orders-template.${format}`);
}

/** Lines of pasted text that hold something (what the server will read as order lines). */
export function countPastedLines(text: string): number {
  return text.split(/\r?\n/).filter((line) => line.trim() !== '').length;
}
