import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiSchema, get } from '@/lib/request';

export const CONTENT_TYPES = ['img', 'horizontalVideo', 'verticalVideo'] as const;
export const FILTER_TYPES = ['artificial', 'rules'] as const;
export const POLICY_STATUSES = ['online', 'offline'] as const;
/** Page size 10 by default. */
export const DEFAULT_PAGE_SIZE = 10;

/** One policy row. */
export type PolicyRow = ApiSchema<'PolicyRow'>;

export interface PolicyQuery {
  current: number;
  pageSize: number;
  number?: string;
  name?: string;
  contentType?: string;
  filterType?: string;
  status?: string;
  /** YYYY-MM-DD, inclusive. */
  createdTimeStart?: string;
  createdTimeEnd?: string;
}

export type PolicyPage = ApiSchema<'PolicyPage'>;

/** GET the policy list: `current` and `pageSize`, the filters; list and total. */
export function getPolicies(query: PolicyQuery): Promise<PolicyPage> {
  // The query travels as text either way; the document types every parameter as text.
  const params = Object.fromEntries(
    Object.entries(query)
      .filter(([, value]) => value !== undefined && value !== '')
      .map(([name, value]) => [name, String(value)]),
  );
  return get('/api/template/policy/list', params);
}

export const policiesQueryOptions = (query: PolicyQuery) =>
  queryOptions({
    queryKey: ['template', 'policies', query],
    queryFn: () => getPolicies(query),
    placeholderData: keepPreviousData,
  });

export const usePolicies = (query: PolicyQuery) => useQuery(policiesQueryOptions(query));
