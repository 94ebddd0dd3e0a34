import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiSchema, get } from '@/lib/request';

export const ACTIVITY_URL = '/adminapi/merchant/activity';

/** One audit event of the signed-in user (`action`: login, login_failed, password_changed, …). */
export type ActivityItem = ApiSchema<'ActivityItem'>;

/** GET /adminapi/merchant/activity: the caller's latest 20 events, newest first. */
export function getActivity(): Promise<ActivityItem[]> {
  return get(ACTIVITY_URL);
}

export const activityQueryOptions = () => queryOptions({ queryKey: ['merchant-activity'], queryFn: getActivity });

export function useActivity() {
  return useQuery(activityQueryOptions());
}
