/**
 * The number-segment table (号段表, docs/api.md "Number segments"): what is in use, a file
 * previewed against it, the preview applied, the table exported.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { downloadFile } from '@/lib/download';
import { type ApiSchema, get, post, postForm } from '@/lib/request';

export const SEGMENTS_URL = '/adminapi/admin/segments';
export const SEGMENTS_PREVIEW_URL = '/adminapi/admin/segments/preview';
export const SEGMENTS_APPLY_URL = '/adminapi/admin/segments/apply';
export const SEGMENTS_EXPORT_URL = '/adminapi/admin/segments/export';

export type SegmentTableSummary = ApiSchema<'SegmentTableSummary'>;
export type SegmentPreview = ApiSchema<'SegmentPreview'>;
export type SegmentChange = ApiSchema<'SegmentChange'>;
export type SegmentPlace = ApiSchema<'SegmentPlace'>;
export type ProvinceCount = ApiSchema<'ProvinceCount'>;

const SEGMENTS_KEY = ['segments'] as const;

/** GET /adminapi/admin/segments: the table in use and where it came from. */
export function getSegmentSummary(): Promise<SegmentTableSummary> {
  return get(SEGMENTS_URL);
}

export const segmentSummaryQueryOptions = () =>
  queryOptions({ queryKey: [...SEGMENTS_KEY, 'summary'], queryFn: getSegmentSummary });

export function useSegmentSummary() {
  return useQuery(segmentSummaryQueryOptions());
}

/** Reads a file (CSV or phone.dat) and answers what applying it would change. */
export function previewSegments(file: File): Promise<SegmentPreview> {
  const form = new FormData();
  form.append('file', file, file.name);
  return postForm(SEGMENTS_PREVIEW_URL, form);
}

export function applySegments(uploadId: number): Promise<ApiSchema<'SegmentApplied'>> {
  return post(SEGMENTS_APPLY_URL, { upload_id: uploadId });
}

export function exportSegments(): Promise<void> {
  return downloadFile(SEGMENTS_EXPORT_URL, {}, 'segments.csv');
}

export function usePreviewSegments() {
  return useMutation({ mutationFn: previewSegments });
}

/** Applying replaces the table: its summary is read again. */
export function useApplySegments() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: applySegments,
    onSuccess: () => void client.invalidateQueries({ queryKey: SEGMENTS_KEY }),
  });
}
