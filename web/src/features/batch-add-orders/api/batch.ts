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
import { type ApiSchema, postForm, post } from '@/lib/request';

export const BATCH_PREVIEW_URL = '/adminapi/order/batch/preview';
export const BATCH_SUBMIT_URL = '/adminapi/order/batch/submit';
export const BATCH_LIST_URL = '/adminapi/order/batch/list';
export const BATCH_RESULT_URL = '/adminapi/order/batch/result';
export const BATCH_TEMPLATE_URL = '/adminapi/order/batch/template';
export const BATCH_DISCARD_URL = '/adminapi/order/batch/discard';
export const BATCH_DETAIL_URL = '/adminapi/order/batch/detail';

export type PreviewError = ApiSchema<'PreviewError'>;

export type BatchPreview = ApiSchema<'PreviewResponse'>;

export type RecentDuplicate = ApiSchema<'RecentDuplicate'>;

export type BatchSummary = ApiSchema<'BatchSummary'>;

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
    return postForm(BATCH_PREVIEW_URL, form, {
      onUploadProgress: (event) => {
        if (input.onProgress && event.total) input.onProgress(Math.round((event.loaded * 100) / event.total));
      },
    });
  }
  return post(BATCH_PREVIEW_URL, {
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
export type BatchDetail = ApiSchema<'BatchDetail'>;

/** POST /adminapi/order/batch/detail: the caller's own batch (administrators: any). */
export function getBatchDetail(batchId: number): Promise<BatchDetail> {
  return post(BATCH_DETAIL_URL, { batch_id: batchId });
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
  return post(BATCH_DISCARD_URL, { batch_id: batchId });
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
  return post(BATCH_SUBMIT_URL, { batch_id: batchId }, { headers: idempotencyHeaders(idempotencyKey) });
}

export function useSubmitBatch() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: submitBatch,
    onSuccess: () => refreshBatchLists(client),
  });
}

/** POST /adminapi/order/batch/list */
export function getBatchList(page: number, pageSize: number): Promise<ApiSchema<'BatchListResponse'>> {
  return post(BATCH_LIST_URL, { page, page_size: pageSize });
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
