import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/request';

export const MONITOR_OVERVIEW_URL = '/adminapi/monitor/overview';
export const MONITOR_REFRESH_MS = 5000;

export interface MonitorOverview {
  version: string;
  started_at: string;
  uptime_seconds: number;
  database_kind: 'sqlite' | 'postgres';
  active_sessions: number;
  requests_last_minute: number;
  requests_per_second: number;
  total_requests: number;
}

/** GET /adminapi/monitor/overview (admin only). */
export function getMonitorOverview(): Promise<MonitorOverview> {
  return getJson<MonitorOverview>(MONITOR_OVERVIEW_URL);
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
