import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ExportFormat } from '@/components/export-buttons/export-buttons';
import { downloadFile, stampedFileName } from '@/lib/download';
import { type ApiSchema, post } from '@/lib/request';

export const QUOTE_LIST_URL = '/adminapi/quote/list';
export const QUOTE_EXPORT_URL = '/adminapi/quote/export';
export const QUOTE_SAVE_URL = '/adminapi/admin/quote/save';

export type QuoteItem = ApiSchema<'QuoteItem'>;

export interface QuoteFilters {
  carrier?: string;
  faceValueFen?: number;
  productKind?: 'direct' | 'card';
  status?: number;
  productKey?: string;
  merchantId?: number;
}

export interface QuoteQuery {
  carrier?: string;
  face_value_fen?: number;
  product_kind?: string;
  status?: number;
  product_key?: string;
  merchant_id?: number;
}

/** Filters → the API's fields (list body and export query share them). */
export function toQuoteQuery(filters: QuoteFilters): QuoteQuery {
  const query: QuoteQuery = {};
  if (filters.carrier) query.carrier = filters.carrier;
  if (filters.faceValueFen !== undefined && filters.faceValueFen !== null) query.face_value_fen = filters.faceValueFen;
  if (filters.productKind) query.product_kind = filters.productKind;
  if (filters.status !== undefined && filters.status !== null) query.status = filters.status;
  const key = filters.productKey?.trim();
  if (key) query.product_key = key;
  if (filters.merchantId !== undefined && filters.merchantId !== null) query.merchant_id = filters.merchantId;
  return query;
}

export type QuoteListRequest = QuoteQuery & { page: number; page_size: number };

/** POST /adminapi/quote/list */
export function getQuoteList(body: QuoteListRequest): Promise<ApiSchema<'QuoteListResponse'>> {
  return post(QUOTE_LIST_URL, body);
}

export const quoteListQueryOptions = (body: QuoteListRequest) =>
  queryOptions({ queryKey: ['quotes', body], queryFn: () => getQuoteList(body), placeholderData: keepPreviousData });

export function useQuoteList(body: QuoteListRequest) {
  return useQuery(quoteListQueryOptions(body));
}

/** GET /adminapi/quote/export with the current filters. */
export function exportQuotes(query: QuoteQuery, format: ExportFormat): Promise<void> {
  return downloadFile(QUOTE_EXPORT_URL, { ...query, format }, stampedFileName('quotes', format));
}

/** What an administrator may change of a merchant's quote: its price (whole fen) and on/off. */
export type QuoteEdit = ApiSchema<'SaveQuoteRequest'>;

/** POST /adminapi/admin/quote/save (administrators): answers the quote as saved. */
export function saveQuote(edit: QuoteEdit): Promise<QuoteItem> {
  return post(QUOTE_SAVE_URL, edit);
}

/** Saving a price refreshes the quote lists and the price history. */
export function useSaveQuote() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveQuote,
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['quotes'] });
      void client.invalidateQueries({ queryKey: ['price-history'] });
    },
  });
}
