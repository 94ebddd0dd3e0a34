/**
 * Merchants' funding requests (充值申请, docs/api.md "Funding requests"): a merchant's user
 * files the bank transfer it made with a proof image; administrators approve (a top-up
 * through the ledger, step-up and Idempotency-Key like every money action) or reject.
 */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { idempotencyHeaders } from '@/lib/idempotency';
import { type ApiSchema, getBlob, post, postForm } from '@/lib/request';

export const FUNDING_CREATE_URL = '/adminapi/funding/create';
export const FUNDING_LIST_URL = '/adminapi/funding/list';
export const FUNDING_WITHDRAW_URL = '/adminapi/funding/withdraw';
export const FUNDING_PROOF_URL = '/adminapi/funding/proof';
export const FUNDING_QUEUE_URL = '/adminapi/admin/funding/list';
export const FUNDING_APPROVE_URL = '/adminapi/admin/funding/approve';
export const FUNDING_REJECT_URL = '/adminapi/admin/funding/reject';
export const FUNDING_ADMIN_PROOF_URL = '/adminapi/admin/funding/proof';

export type FundingItem = ApiSchema<'FundingItem'>;
export type FundingList = ApiSchema<'FundingListResponse'>;
export const FUNDING_STATUSES = ['pending', 'approved', 'rejected', 'withdrawn'] as const;
export type FundingStatus = (typeof FUNDING_STATUSES)[number];

const FUNDING_KEY = ['funding'] as const;

export interface FundingFiling {
  amountFen: number;
  bankReference: string;
  payerName: string;
  note?: string;
  proof: Blob;
}

/** The multipart form the server reads (`amount_fen`, `bank_reference`, `payer_name`, `note`, `file`). */
export function fundingForm(filing: FundingFiling): FormData {
  const form = new FormData();
  form.append('amount_fen', String(filing.amountFen));
  form.append('bank_reference', filing.bankReference.trim());
  form.append('payer_name', filing.payerName.trim());
  const note = filing.note?.trim();
  if (note) form.append('note', note);
  form.append('file', filing.proof);
  return form;
}

/** POST /adminapi/funding/create: a duplicate reference is refused (`funding.reference.duplicate`). */
export function fileFundingRequest(filing: FundingFiling): Promise<ApiSchema<'FundingCreated'>> {
  return postForm(FUNDING_CREATE_URL, fundingForm(filing));
}

export interface FundingQuery {
  status?: FundingStatus;
  /** Administrators' queue only. */
  merchant_id?: number;
  start_time?: string;
  end_time?: string;
}

export const ownFundingQueryOptions = (query: FundingQuery, page: number, pageSize: number) =>
  queryOptions({
    queryKey: [...FUNDING_KEY, 'own', query, page, pageSize],
    queryFn: (): Promise<FundingList> =>
      post(FUNDING_LIST_URL, { ...(query.status ? { status: query.status } : {}), page, page_size: pageSize }),
    placeholderData: keepPreviousData,
  });

export const fundingQueueQueryOptions = (query: FundingQuery, page: number, pageSize: number) =>
  queryOptions({
    queryKey: [...FUNDING_KEY, 'queue', query, page, pageSize],
    queryFn: (): Promise<FundingList> => post(FUNDING_QUEUE_URL, { ...query, page, page_size: pageSize }),
    placeholderData: keepPreviousData,
  });

/** Every change refreshes both lists (and the figures an approval moved). */
function useFundingChange<A, R>(change: (args: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: () => client.invalidateQueries({ queryKey: FUNDING_KEY }),
  });
}

export const useFileFunding = () => useFundingChange(fileFundingRequest);

export const useWithdrawFunding = () =>
  useFundingChange((id: number): Promise<FundingItem> => post(FUNDING_WITHDRAW_URL, { id }));

/** Approve with the submission's key: a repeat (a double click, a retry after step-up) credits once. */
export const useApproveFunding = () =>
  useFundingChange(
    ({ id, idempotencyKey }: { id: number; idempotencyKey: string }): Promise<FundingItem> =>
      post(FUNDING_APPROVE_URL, { id }, { headers: idempotencyHeaders(idempotencyKey) }) as Promise<FundingItem>,
  );

export const useRejectFunding = () =>
  useFundingChange(({ id, reason }: { id: number; reason: string }): Promise<FundingItem> =>
    post(FUNDING_REJECT_URL, { id, reason: reason.trim() }),
  );

/** The proof image of a request: the merchant's own, or (administrators) any. */
export function useFundingProof(id: number, admin: boolean, enabled: boolean) {
  return useQuery({
    queryKey: [...FUNDING_KEY, 'proof', admin, id],
    queryFn: () => getBlob(admin ? FUNDING_ADMIN_PROOF_URL : FUNDING_PROOF_URL, { params: { id } }),
    staleTime: Infinity,
    enabled,
  });
}
