import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { idempotencyHeaders } from '@/lib/idempotency';
import { postJson } from '@/lib/request';

export const MERCHANT_LIST_URL = '/adminapi/admin/merchant/list';
export const MERCHANT_ACTION_URLS = {
  topup: '/adminapi/admin/merchant/topup',
  credit: '/adminapi/admin/merchant/credit',
  repay: '/adminapi/admin/merchant/repay',
  adjust: '/adminapi/admin/merchant/adjust',
} as const;
export type MerchantAction = keyof typeof MERCHANT_ACTION_URLS;

export interface MerchantRow {
  merchant_id: number;
  name: string;
  balance_fen: number;
  credit_limit_fen: number;
  credit_used_fen: number;
  credit_available_fen: number;
  total_topup_fen: number;
  created_at: string;
}

export interface MerchantAccount {
  balance_fen: number;
  credit_limit_fen: number;
  credit_used_fen: number;
  total_topup_fen: number;
}

/** POST /adminapi/admin/merchant/list (administrators). */
export function getMerchants(keyword: string, page: number, pageSize: number): Promise<{ list: MerchantRow[]; total: number }> {
  return postJson(MERCHANT_LIST_URL, { ...(keyword ? { keyword } : {}), page, page_size: pageSize });
}

export const merchantsQueryOptions = (keyword: string, page: number, pageSize: number) =>
  queryOptions({
    queryKey: ['merchants', keyword, page, pageSize],
    queryFn: () => getMerchants(keyword, page, pageSize),
    placeholderData: keepPreviousData,
  });

export function useMerchants(keyword: string, page: number, pageSize: number) {
  return useQuery(merchantsQueryOptions(keyword, page, pageSize));
}

export interface MerchantActionRequest {
  action: MerchantAction;
  merchantId: number;
  /** Integer fen: the top-up, the new credit limit, the repayment or the signed adjustment. */
  amountFen: number;
  remark?: string;
  /** Made when the dialog opened and sent with each submission (docs/api.md, Idempotency-Key). */
  idempotencyKey: string;
}

/** The body of each action: the credit call takes the new limit, the others an amount. */
export function actionBody({ action, merchantId, amountFen, remark }: Omit<MerchantActionRequest, 'idempotencyKey'>): Record<string, unknown> {
  const body: Record<string, unknown> = { merchant_id: merchantId };
  if (action === 'credit') body.credit_limit_fen = amountFen;
  else body.amount_fen = amountFen;
  const note = remark?.trim();
  if (note) body.remark = note;
  return body;
}

/** POST one of the administrator's money actions on a merchant; a repeated key moves nothing. */
export function runMerchantAction(request: MerchantActionRequest): Promise<MerchantAccount> {
  return postJson<MerchantAccount>(MERCHANT_ACTION_URLS[request.action], actionBody(request), {
    headers: idempotencyHeaders(request.idempotencyKey),
  });
}

export function useMerchantAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: runMerchantAction,
    onSuccess: () => client.invalidateQueries({ queryKey: ['merchants'] }),
  });
}
