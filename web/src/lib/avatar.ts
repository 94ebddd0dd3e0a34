/**
 * The signed-in user's avatar: GET /adminapi/merchant/avatar answers with the image bytes
 * (with the session headers, so no plain <img src>), shown through an object URL (the CSP
 * allows blob: images). Shared by the navbar, the settings page and the user info page
 * (components/avatar shows it).
 */
import { queryOptions } from '@tanstack/react-query';
import { ApiError, getBlob } from './request';

export const AVATAR_URL = '/adminapi/merchant/avatar';
export const AVATAR_QUERY_KEY = ['avatar'] as const;

/** The avatar image, or null when none was uploaded (the server's 404). */
export async function getAvatar(): Promise<Blob | null> {
  try {
    return await getBlob(AVATAR_URL);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export const avatarQueryOptions = () =>
  queryOptions({ queryKey: AVATAR_QUERY_KEY, queryFn: getAvatar, staleTime: Infinity });
