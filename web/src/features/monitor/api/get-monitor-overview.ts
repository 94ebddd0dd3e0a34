import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiSchema, get } from '@/lib/request';

export const MONITOR_OVERVIEW_URL = '/adminapi/monitor/overview';
export const MONITOR_REFRESH_MS = 5000;

export type MonitorOverview = ApiSchema<'MonitorOverview'>;

/** GET /adminapi/monitor/overview (admin only). */
export function getMonitorOverview(): Promise<MonitorOverview> {
  return get(MONITOR_OVERVIEW_URL);
}

export const monitorOverviewQueryOptions = () =>
  queryOptions({
    queryKey: ['monitor-overview'],
    queryFn: getMonitorOverview,
    refetchInterval: MONITOR_REFRESH_MS,
  });

export function useMonitorOverview() {
  return useQuery(monitorOverviewQueryOptions());
}
