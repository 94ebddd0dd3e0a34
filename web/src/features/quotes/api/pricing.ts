import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiSchema, postForm, post } from '@/lib/request';

export const PRICING_URLS = {
  preview: '/adminapi/admin/quote/reprice/preview',
  apply: '/adminapi/admin/quote/reprice/apply',
  history: '/adminapi/admin/quote/history',
  import: '/adminapi/admin/quote/import',
} as const;

export type Rounding = ApiSchema<'Rounding'>;

/** A bulk rule: face value × rate_bp / 10000, rounded to the fen as stated. */
export interface RepriceRule {
  merchant_id: number;
  carrier?: string;
  product_kind?: string;
  /** Basis points: 9850 is 98.5 %. */
  rate_bp: number;
  rounding: Rounding;
}

export type RepriceRow = ApiSchema<'RepriceRow'>;

/** A new price at or below the cheapest channel's cost, or under the minimum margin. */
export type MarginWarning = ApiSchema<'MarginWarning'>;

export type RepricePreview = ApiSchema<'RepricePreview'>;

/** What apply sends: the rule and, when the preview warned, its acknowledgement. */
export interface ApplyRequest {
  rule: RepriceRule;
  acknowledgement: string | null;
}

/** The server refused to apply because the warnings were not (or no longer) the acknowledged ones. */
export const ACKNOWLEDGE_FIELD = 'acknowledge_warnings';

export type PriceHistoryItem = ApiSchema<'PriceHistoryItem'>;

/**
 * A percentage typed as text ("98.5", "98.55") → basis points (9850, 9855), by string
 * arithmetic (no floating point touches a price). Null for anything else.
 */
export function percentToBasisPoints(input: string): number | null {
  const match = /^(\d{1,3})(?:\.(\d{0,2}))?$/.exec(input.trim().replace(/%$/, '').trim());
  if (!match) return null;
  const [, whole, fraction = ''] = match;
  const bp = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return bp >= 1 && bp <= 20000 ? bp : null;
}

/** Basis points as a percentage, by string arithmetic: 50 → "0.5", 9850 → "98.5", 5 → "0.05". */
export function basisPointsToPercent(bp: number): string {
  const whole = Math.trunc(bp / 100);
  const fraction = String(bp % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/** The rule as sent: empty filters left out. */
export function ruleBody(rule: RepriceRule): RepriceRule {
  const body: RepriceRule = { merchant_id: rule.merchant_id, rate_bp: rule.rate_bp, rounding: rule.rounding };
  if (rule.carrier) body.carrier = rule.carrier;
  if (rule.product_kind) body.product_kind = rule.product_kind;
  return body;
}

/** What the rule would do; changes nothing. */
export function previewReprice(rule: RepriceRule): Promise<RepricePreview> {
  return post(PRICING_URLS.preview, ruleBody(rule));
}

/** Applies the rule in one transaction; answers what it applied. */
export function applyReprice({ rule, acknowledgement }: ApplyRequest): Promise<RepricePreview> {
  const body = { ...ruleBody(rule), ...(acknowledgement ? { [ACKNOWLEDGE_FIELD]: acknowledgement } : {}) };
  return post(PRICING_URLS.apply, body);
}

/** Imports a price list (CSV or xlsx, as exported, or "key, price" lines): all or nothing. */
export function importQuotes(input: { merchantId: number; file: File }): Promise<{ lines: number; changed: number }> {
  const form = new FormData();
  form.append('merchant_id', String(input.merchantId));
  form.append('file', input.file, input.file.name);
  return postForm(PRICING_URLS.import, form);
}

export function usePreviewReprice() {
  return useMutation({ mutationFn: previewReprice });
}

/** Applying and importing change prices: the quote lists and the history refresh. */
export function usePriceChange<TRequest, TResult>(call: (request: TRequest) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['quotes'] });
      void client.invalidateQueries({ queryKey: ['price-history'] });
    },
  });
}

export function getPriceHistory(body: {
  merchant_id: number;
  page: number;
  page_size: number;
}): Promise<ApiSchema<'PriceHistoryResponse'>> {
  return post(PRICING_URLS.history, body);
}

export const priceHistoryQueryOptions = (merchantId: number, page: number, pageSize: number) =>
  queryOptions({
    queryKey: ['price-history', merchantId, page, pageSize],
    queryFn: () => getPriceHistory({ merchant_id: merchantId, page, page_size: pageSize }),
    placeholderData: keepPreviousData,
  });

export function usePriceHistory(merchantId: number | null, page: number, pageSize: number) {
  return useQuery({ ...priceHistoryQueryOptions(merchantId ?? 0, page, pageSize), enabled: merchantId !== null });
}
