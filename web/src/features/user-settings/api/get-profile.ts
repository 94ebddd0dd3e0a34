import { queryOptions, useQuery } from '@tanstack/react-query';
import { post } from '@/lib/request';

export const PROFILE_URL = '/adminapi/merchant/profile';
export const PROFILE_QUERY_KEY = ['merchant-profile'] as const;

/** What the settings page edits (the server's ProfileView). */
export interface Profile {
  username: string;
  nickname: string;
  email: string;
  country_region: string;
  /** Province/city/county codes joined by '/', or free text outside the Chinese mainland. */
  area: string;
  address: string;
  contact_phone: string;
  introduction: string;
  personal_website: string;
  office_location: string;
  notify_url: string;
  ip_whitelist: string;
  account_id: string;
  registration_date: string;
  has_avatar: boolean;
  security_question: string;
  /** The answer itself never leaves the server. */
  security_answer_set: boolean;
  security_email: string;
  security_phone: string;
}

/** POST /adminapi/merchant/profile (no body): the caller's own profile. */
export function getProfile(): Promise<Profile> {
  return post(PROFILE_URL);
}

export const profileQueryOptions = () => queryOptions({ queryKey: PROFILE_QUERY_KEY, queryFn: getProfile });

export function useProfile() {
  return useQuery(profileQueryOptions());
}
