import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ExportFormat } from '@/components/export-buttons/export-buttons';
import { downloadFile, stampedFileName } from '@/lib/download';
import { type ApiSchema, post } from '@/lib/request';

export const STATEMENT_URL = '/adminapi/finance/statement';
export const STATEMENT_EXPORT_URL = '/adminapi/finance/statement/export';

export type Statement = ApiSchema<'Statement'>;
export type StatementPeriod = 'day' | 'month';

export interface StatementQuery {
  period: StatementPeriod;
  /** YYYY-MM-DD for a day, YYYY-MM for a month (Beijing time). */
  date: string;
  /** Administrators: one merchant, or every merchant when absent. Merchants: absent. */
  merchant_id?: number;
}

/** POST /adminapi/finance/statement: one statement per merchant, by mid. */
export function getStatements(query: StatementQuery): Promise<Statement[]> {
  return post(STATEMENT_URL, query);
}

export const statementsQueryOptions = (query: StatementQuery) =>
  queryOptions({ queryKey: ['statements', query], queryFn: () => getStatements(query) });

export function useStatements(query: StatementQuery) {
  return useQuery(statementsQueryOptions(query));
}

/** The sum of a statement's movements of one account and kind. */
export function movementOf(statement: Statement, account: 'balance' | 'credit', change: string): number {
  return statement.movements
    .filter((movement) => movement.account_type === account && movement.change_type === change)
    .reduce((sum, movement) => sum + movement.amount_fen, 0);
}

/** GET /adminapi/finance/statement/export: the same statements as a file. */
export function exportStatements(query: StatementQuery, format: ExportFormat): Promise<void> {
  return downloadFile(STATEMENT_EXPORT_URL, { ...query, format }, stampedFileName(`statement-${query.date}`, format));
}
