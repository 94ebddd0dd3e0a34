import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/request';

export const ACTIVITY_URL = '/adminapi/merchant/activity';

/** One audit event of the signed-in user. */
export interface ActivityItem {
  id: number;
  /** login, login_failed, password_changed, profile_changed, certification_submitted, … */
  action: string;
  client_address: string;
  time: string;
}

/** GET /adminapi/merchant/activity: the caller's latest 20 events, newest first. */
export function getActivity(): Promise<ActivityItem[]> {
  return getJson<ActivityItem[]>(ACTIVITY_URL);
}

export const activityQueryOptions = () => queryOptions({ queryKey: ['merchant-activity'], queryFn: getActivity });

export function useActivity() {
  return useQuery(activityQueryOptions());
}
