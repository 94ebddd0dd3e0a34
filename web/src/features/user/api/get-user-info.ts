import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiSchema, post, USER_INFO_URL } from '@/lib/request';
import { getLoginInfo } from '@/lib/session';
import { useUserStore } from '@/stores/user-store';

/** POST /adminapi/merchant/userInfo {mid}; an admin's mid is null (the server answers with the caller). */
export function getUserInfo(mid: number | null): Promise<ApiSchema<'UserInfo'>> {
  return post(USER_INFO_URL, { mid });
}

export const userInfoQueryOptions = (mid: number | null) =>
  queryOptions({ queryKey: ['user-info', mid], queryFn: () => getUserInfo(mid) });

export function useUserInfo() {
  return useQuery(userInfoQueryOptions(getLoginInfo()?.mid ?? null));
}

let inFlight: Promise<void> | null = null;

/** Fetch the signed-in user's info into the user store (one request at a time). */
export function loadUserInfo(): Promise<void> {
  if (inFlight) return inFlight;
  const loginInfo = getLoginInfo();
  inFlight = getUserInfo(loginInfo?.mid ?? null)
    .then((info) => {
      useUserStore.getState().setUserInfo(info);
    })
    .finally(() => {
      inFlight = null;
    });
  return inFlight;
}
