import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiSchema, post } from '@/lib/request';

export const PROFILE_URL = '/adminapi/merchant/profile';
export const PROFILE_QUERY_KEY = ['merchant-profile'] as const;

/** What the settings page edits (the server's ProfileView). */
export type Profile = ApiSchema<'ProfileView'>;

/** POST /adminapi/merchant/profile (no body): the caller's own profile. */
export function getProfile(): Promise<Profile> {
  return post(PROFILE_URL);
}

export const profileQueryOptions = () => queryOptions({ queryKey: PROFILE_QUERY_KEY, queryFn: getProfile });

export function useProfile() {
  return useQuery(profileQueryOptions());
}
