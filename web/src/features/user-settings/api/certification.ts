/**
 * Real-name (enterprise) certification: /adminapi/certification/{list,detail,submit,withdraw}.
 * Status: 0 auditing, 1 passed, 2 rejected (with reject_reason), 3 withdrawn.
 */
import { mutationOptions, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiSchema, getBlob, postForm, post } from '@/lib/request';

export const CERTIFICATION_LIST_URL = '/adminapi/certification/list';
export const CERTIFICATION_DETAIL_URL = '/adminapi/certification/detail';
export const CERTIFICATION_SUBMIT_URL = '/adminapi/certification/submit';
export const CERTIFICATION_WITHDRAW_URL = '/adminapi/certification/withdraw';
export const CERTIFICATION_LICENCE_URL = '/adminapi/certification/licence';
/** The server's limit for the licence image; it checks the type by content (PNG, JPEG, WebP). */
export const MAX_LICENCE_BYTES = 5 * 1024 * 1024;
export const LICENCE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

export const CERTIFICATION_STATUS = { auditing: 0, passed: 1, rejected: 2, withdrawn: 3 } as const;
export type CertificationStatusName = keyof typeof CERTIFICATION_STATUS;

export const PERSON_CERTIFICATE_TYPES = ['id_card', 'passport', 'hk_macao_pass', 'taiwan_pass'] as const;
export const ENTERPRISE_CERTIFICATE_TYPES = ['unified_social_credit_code', 'business_license'] as const;

export type CertificationRecord = ApiSchema<'CertificationRecord'>;

export type CertificationSubmitRequest = ApiSchema<'CertificationSubmitRequest'>;

const CERTIFICATIONS_KEY = ['certifications'] as const;

export function statusName(status: number): CertificationStatusName | undefined {
  return (Object.keys(CERTIFICATION_STATUS) as CertificationStatusName[]).find(
    (name) => CERTIFICATION_STATUS[name] === status,
  );
}

/** The record that describes the account now: a passed one, else the newest (or none). */
export function currentCertification(records: CertificationRecord[]): CertificationRecord | undefined {
  return records.find((record) => record.status === CERTIFICATION_STATUS.passed) ?? records[0];
}

/** A new submission is possible unless a record is under audit or has passed. */
export function canSubmitCertification(records: CertificationRecord[]): boolean {
  return !records.some(
    (record) => record.status === CERTIFICATION_STATUS.auditing || record.status === CERTIFICATION_STATUS.passed,
  );
}

/** POST /adminapi/certification/list: the caller's records, newest first, numbers masked. */
export function getCertifications(): Promise<CertificationRecord[]> {
  return post(CERTIFICATION_LIST_URL, {});
}

export const certificationsQueryOptions = () =>
  queryOptions({ queryKey: [...CERTIFICATIONS_KEY, 'list'], queryFn: getCertifications });

export function useCertifications() {
  return useQuery(certificationsQueryOptions());
}

/** POST /adminapi/certification/detail {id}: one record with full numbers. */
export function getCertificationDetail(id: number): Promise<CertificationRecord> {
  return post(CERTIFICATION_DETAIL_URL, { id });
}

export const certificationDetailQueryOptions = (id: number) =>
  queryOptions({ queryKey: [...CERTIFICATIONS_KEY, 'detail', id], queryFn: () => getCertificationDetail(id) });

export function useCertificationDetail(id: number | null) {
  return useQuery({ ...certificationDetailQueryOptions(id ?? 0), enabled: id !== null });
}

export function submitCertification(request: CertificationSubmitRequest): Promise<CertificationRecord> {
  return post(CERTIFICATION_SUBMIT_URL, request);
}

export function withdrawCertification(id: number): Promise<CertificationRecord> {
  return post(CERTIFICATION_WITHDRAW_URL, { id });
}

export const submitCertificationMutationOptions = () =>
  mutationOptions({ mutationKey: ['certification-submit'], mutationFn: submitCertification });

export const withdrawCertificationMutationOptions = () =>
  mutationOptions({ mutationKey: ['certification-withdraw'], mutationFn: withdrawCertification });

export function useSubmitCertification() {
  const client = useQueryClient();
  return useMutation({
    ...submitCertificationMutationOptions(),
    onSuccess: () => client.invalidateQueries({ queryKey: CERTIFICATIONS_KEY }),
  });
}

export function useWithdrawCertification() {
  const client = useQueryClient();
  return useMutation({
    ...withdrawCertificationMutationOptions(),
    onSuccess: () => client.invalidateQueries({ queryKey: CERTIFICATIONS_KEY }),
  });
}

export const CERTIFICATION_REVIEW_URL = '/adminapi/certification/review';

export type CertificationReviewRequest = ApiSchema<'ReviewRequest'>;

/** Administrators: every merchant's records with this status (undefined: all), numbers masked. */
export function getCertificationsForReview(status?: number): Promise<CertificationRecord[]> {
  return post(CERTIFICATION_LIST_URL, status === undefined ? {} : { status });
}

export const certificationReviewQueryOptions = (status?: number) =>
  queryOptions({
    queryKey: [...CERTIFICATIONS_KEY, 'review', status ?? 'all'],
    queryFn: () => getCertificationsForReview(status),
  });

export function useCertificationsForReview(status?: number) {
  return useQuery(certificationReviewQueryOptions(status));
}

/** POST /adminapi/certification/review: approve, or reject with a reason (administrators only). */
export function reviewCertification(request: CertificationReviewRequest): Promise<CertificationRecord> {
  return post(CERTIFICATION_REVIEW_URL, request);
}

export const reviewCertificationMutationOptions = () =>
  mutationOptions({ mutationKey: ['certification-review'], mutationFn: reviewCertification });

export function useReviewCertification() {
  const client = useQueryClient();
  return useMutation({
    ...reviewCertificationMutationOptions(),
    onSuccess: () => client.invalidateQueries({ queryKey: CERTIFICATIONS_KEY }),
  });
}

export type LicenceSaved = ApiSchema<'LicenceSaved'>;

/** POST /adminapi/certification/licence, multipart `id` and `file`: the licence image of one's own record under audit. */
export function uploadCertificationLicence(id: number, file: Blob): Promise<LicenceSaved> {
  const form = new FormData();
  form.append('id', String(id));
  form.append('file', file);
  return postForm(CERTIFICATION_LICENCE_URL, form);
}

/** GET /adminapi/certification/licence?id= (administrators): the image bytes. */
export function getCertificationLicence(id: number): Promise<Blob> {
  return getBlob(CERTIFICATION_LICENCE_URL, { params: { id } });
}

export const certificationLicenceQueryOptions = (id: number) =>
  queryOptions({
    queryKey: [...CERTIFICATIONS_KEY, 'licence', id],
    queryFn: () => getCertificationLicence(id),
    staleTime: Infinity,
  });

export function useCertificationLicence(id: number, enabled: boolean) {
  return useQuery({ ...certificationLicenceQueryOptions(id), enabled });
}
