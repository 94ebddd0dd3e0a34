import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiSchema, post } from '@/lib/request';
import { hasToken } from '@/lib/session';

export const UPCOMING_WINDOWS_URL = '/adminapi/windows/upcoming';

export type UpcomingWindow = ApiSchema<'UpcomingWindow'>;

/** POST /adminapi/windows/upcoming: maintenance windows of the next seven days, by start. */
export const upcomingWindowsQueryOptions = () =>
  queryOptions({
    queryKey: ['upcoming-windows'],
    queryFn: (): Promise<UpcomingWindow[]> => post(UPCOMING_WINDOWS_URL, {}),
    refetchInterval: 60_000,
  });

export function useUpcomingWindows() {
  return useQuery({ ...upcomingWindowsQueryOptions(), enabled: hasToken() });
}
