import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/request';

export const CONTENT_TYPES = ['img', 'horizontalVideo', 'verticalVideo'] as const;
export const FILTER_TYPES = ['artificial', 'rules'] as const;
export const POLICY_STATUSES = ['online', 'offline'] as const;
/** §9: page size 10 by default. */
export const DEFAULT_PAGE_SIZE = 10;

/** §3 policy row. */
export interface PolicyRow {
  id: number;
  number: number;
  name: string;
  contentType: (typeof CONTENT_TYPES)[number];
  count: number;
  status: (typeof POLICY_STATUSES)[number];
  filterType: (typeof FILTER_TYPES)[number];
  createdTime: string;
}

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

export interface PolicyPage {
  list: PolicyRow[];
  total: number;
}

/** GET the policy list (§7): `current` and `pageSize`, the filters; list and total. */
export function getPolicies(query: PolicyQuery): Promise<PolicyPage> {
  const params = Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined && value !== ''));
  return getJson<PolicyPage>('/api/template/policy/list', { params });
}

export const policiesQueryOptions = (query: PolicyQuery) =>
  queryOptions({
    queryKey: ['template', 'policies', query],
    queryFn: () => getPolicies(query),
    placeholderData: keepPreviousData,
  });

export const usePolicies = (query: PolicyQuery) => useQuery(policiesQueryOptions(query));
