/**
 * The ported numbers (携号转网记录, docs/api.md "/adminapi/admin/ports"): numbers a supplier
 * answered had left the product's carrier, which placing refuses for that carrier. Listed,
 * exported, and a wrong one removed with a reason.
 */
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ExportFormat } from '@/components/export-buttons/export-buttons';
import { type FilterSchema, type FilterValues, listLink } from '@/components/list-page/url-filters';
import { downloadFile, stampedFileName } from '@/lib/download';
import { type ApiSchema, post } from '@/lib/request';

export const PORTS_LIST_URL = '/adminapi/admin/ports/list';
export const PORTS_DELETE_URL = '/adminapi/admin/ports/delete';
export const PORTS_EXPORT_URL = '/adminapi/admin/ports/export';

export type PortedNumber = ApiSchema<'PortedNumber'>;
export type PortedNumberPage = ApiSchema<'PortedNumberPage'>;

export const PORT_CARRIERS = ['mobile', 'unicom', 'telecom', 'broadnet'] as const;
export type PortCarrier = (typeof PORT_CARRIERS)[number];

/** The list's query: the export takes the same fields. */
export interface PortQuery {
  number?: string;
  from_carrier?: PortCarrier;
}

/** The filters as they sit in the page address. */
export const PORT_FILTER_SCHEMA: FilterSchema = { texts: ['number', 'carrier'] };

/**
 * Address values → the query. The number keeps only what the server reads (digits, with
 * +86, spaces and full-width digits as typed); an unknown carrier (a hand-edited link) is
 * dropped rather than refused.
 */
export function toPortQuery(values: FilterValues): PortQuery {
  const query: PortQuery = {};
  const number = typeof values.number === 'string' ? values.number.trim() : '';
  if (number) query.number = number;
  const carrier = PORT_CARRIERS.find((known) => known === values.carrier);
  if (carrier) query.from_carrier = carrier;
  return query;
}

const ORDER_LINK_SCHEMA: FilterSchema = { texts: ['kind', 'orderNo'] };

/** The order list showing the order a port was recorded for (any kind, by its number). */
export function portOrderLink(port: Pick<PortedNumber, 'order_no'>): string | undefined {
  return port.order_no
    ? listLink('/order/list', { kind: 'all', orderNo: port.order_no }, ORDER_LINK_SCHEMA)
    : undefined;
}

const PORTS_KEY = ['ported-numbers'] as const;

export const portsQueryOptions = (query: PortQuery, page: number, pageSize: number) =>
  queryOptions({
    queryKey: [...PORTS_KEY, query, page, pageSize],
    queryFn: (): Promise<PortedNumberPage> => post(PORTS_LIST_URL, { ...query, page, page_size: pageSize }),
    placeholderData: keepPreviousData,
  });

export function exportPorts(query: PortQuery, format: ExportFormat): Promise<void> {
  return downloadFile(PORTS_EXPORT_URL, { ...query, format }, stampedFileName('ported-numbers', format));
}

/** Remove a wrong record; the list is read again. */
export function useRemovePort() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ number, reason }: { number: string; reason: string }): Promise<null> =>
      post(PORTS_DELETE_URL, { number, reason: reason.trim() }),
    onSuccess: () => client.invalidateQueries({ queryKey: PORTS_KEY }),
  });
}
