import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { idempotencyHeaders } from '@/lib/idempotency';
import { type ApiSchema, get, type PostBody, post } from '@/lib/request';
import { hasToken } from '@/lib/session';

export const MERCHANT_LIST_URL = '/adminapi/admin/merchant/list';
export const MERCHANT_ACTION_URLS = {
  topup: '/adminapi/admin/merchant/topup',
  credit: '/adminapi/admin/merchant/credit',
  repay: '/adminapi/admin/merchant/repay',
  adjust: '/adminapi/admin/merchant/adjust',
} as const;
export type MerchantAction = keyof typeof MERCHANT_ACTION_URLS;

export type MerchantRow = ApiSchema<'MerchantFigures'>;

export type MerchantAccount = ApiSchema<'Account'>;

/** POST /adminapi/admin/merchant/list (administrators). */
export function getMerchants(
  keyword: string,
  page: number,
  pageSize: number,
): Promise<ApiSchema<'MerchantListResponse'>> {
  return post(MERCHANT_LIST_URL, { ...(keyword ? { keyword } : {}), page, page_size: pageSize });
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
  /** The submission's key (lib/submission.ts; docs/api.md, Idempotency-Key). */
  idempotencyKey: string;
}

/** The body of each action: the credit call takes the new limit, the others an amount. */
export function actionBody({
  action,
  merchantId,
  amountFen,
  remark,
}: Omit<MerchantActionRequest, 'idempotencyKey'>): PostBody<(typeof MERCHANT_ACTION_URLS)[MerchantAction]> {
  const note = remark?.trim();
  const withNote = note ? { remark: note } : {};
  if (action === 'credit') return { merchant_id: merchantId, credit_limit_fen: amountFen, ...withNote };
  return { merchant_id: merchantId, amount_fen: amountFen, ...withNote };
}

/** POST one of the administrator's money actions on a merchant; a repeated key moves nothing. */
export function runMerchantAction(request: MerchantActionRequest): Promise<MerchantAccount> {
  return post(MERCHANT_ACTION_URLS[request.action], actionBody(request), {
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

export const MERCHANT_ADMIN_URLS = {
  create: '/adminapi/admin/merchant/create',
  update: '/adminapi/admin/merchant/update',
  disable: '/adminapi/admin/merchant/disable',
  enable: '/adminapi/admin/merchant/enable',
  users: '/adminapi/admin/merchant/users',
  addUser: '/adminapi/admin/merchant/addUser',
  resetPassword: '/adminapi/admin/merchant/resetPassword',
} as const;

/** A new or reset sign-in: the temporary password is shown this once. */
export type TemporaryCredentials = ApiSchema<'TemporaryCredentials'>;

export type MerchantState = ApiSchema<'MerchantState'>;

export type MerchantUser = ApiSchema<'MerchantUserItem'>;

/** POST create: a merchant (next free mid) with its first user. */
export function createMerchant(request: { name: string; username: string }): Promise<TemporaryCredentials> {
  return post(MERCHANT_ADMIN_URLS.create, request);
}

export function renameMerchant(request: { merchant_id: number; name: string }): Promise<MerchantState> {
  return post(MERCHANT_ADMIN_URLS.update, request);
}

/** Disabling ends the merchant's sessions at once; enabling lets it sign in and order again. */
export function setMerchantEnabled(merchantId: number, enabled: boolean): Promise<MerchantState> {
  return post(enabled ? MERCHANT_ADMIN_URLS.enable : MERCHANT_ADMIN_URLS.disable, {
    merchant_id: merchantId,
  });
}

export function getMerchantUsers(merchantId: number): Promise<MerchantUser[]> {
  return post(MERCHANT_ADMIN_URLS.users, { merchant_id: merchantId });
}

export function addMerchantUser(request: {
  merchant_id: number;
  username: string;
  name?: string;
}): Promise<TemporaryCredentials> {
  return post(MERCHANT_ADMIN_URLS.addUser, request);
}

export function resetUserPassword(userId: number): Promise<TemporaryCredentials> {
  return post(MERCHANT_ADMIN_URLS.resetPassword, { user_id: userId });
}

export const merchantUsersQueryOptions = (merchantId: number) =>
  queryOptions({ queryKey: ['merchant-users', merchantId], queryFn: () => getMerchantUsers(merchantId) });

export function useMerchantUsers(merchantId: number | null) {
  return useQuery({ ...merchantUsersQueryOptions(merchantId ?? 0), enabled: merchantId !== null });
}

/** Every merchant administration call refreshes the list and the users shown. */
export function useMerchantAdmin<TRequest, TResult>(call: (request: TRequest) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['merchants'] });
      void client.invalidateQueries({ queryKey: ['merchant-users'] });
    },
  });
}

export const RESET_TWO_FACTOR_URL = '/adminapi/admin/user/reset2FA';
/** The signed-in administrator's own two-factor status (does the reset need their code?). */
export const OWN_TWO_FACTOR_STATUS_URL = '/adminapi/google-auth/get2FAStatus';

/**
 * POST reset2FA: turn off another user's two-factor. An administrator with two-factor on
 * sends their own code (authenticator or backup). The dialog shows refusals itself.
 */
export function resetUserTwoFactor(request: { user_id: number; code?: string }): Promise<null> {
  return post(RESET_TWO_FACTOR_URL, request satisfies PostBody<typeof RESET_TWO_FACTOR_URL>, {
    quietErrors: true,
  });
}

/** Whether the signed-in administrator has two-factor on (then the reset asks for their code). */
export async function getOwnTwoFactorEnabled(): Promise<boolean> {
  const answer = await get(OWN_TWO_FACTOR_STATUS_URL, undefined, { quietErrors: true });
  return Boolean(answer.enabled);
}

/** Same key as the two-factor page's status, so turning it on or off there refreshes this too. */
export const ownTwoFactorQueryOptions = () =>
  queryOptions({ queryKey: ['two-factor', 'status', 'enabled'], queryFn: getOwnTwoFactorEnabled });

/** Only while the dialog is open and with a session (a refetch after sign-out would answer 50008). */
export function useOwnTwoFactorEnabled(active: boolean) {
  return useQuery({ ...ownTwoFactorQueryOptions(), enabled: active && hasToken() });
}

export const MERCHANT_RISK_URLS = {
  view: '/adminapi/admin/merchant/risk',
  save: '/adminapi/admin/merchant/risk/save',
} as const;

/** A merchant's risk controls (0 in a limit: no limit; amounts in fen). */
export type MerchantRisk = ApiSchema<'RiskLimitsView'>;
export type SaveMerchantRisk = PostBody<typeof MERCHANT_RISK_URLS.save>;

export function getMerchantRisk(merchantId: number): Promise<MerchantRisk> {
  return post(MERCHANT_RISK_URLS.view, { merchant_id: merchantId });
}

export function useMerchantRisk(merchantId: number | null) {
  return useQuery({
    queryKey: ['merchant-risk', merchantId],
    queryFn: () => getMerchantRisk(merchantId ?? 0),
    enabled: merchantId !== null,
  });
}

/** POST save (administrators; audited): holds for the merchant's next order. */
export function useSaveMerchantRisk() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: SaveMerchantRisk): Promise<MerchantRisk> => post(MERCHANT_RISK_URLS.save, request),
    onSuccess: () => client.invalidateQueries({ queryKey: ['merchant-risk'] }),
  });
}
