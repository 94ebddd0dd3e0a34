/**
 * The signed-in user's avatar: GET /adminapi/merchant/avatar answers with the image bytes
 * (with the session headers, so no plain <img src>), shown through an object URL (the CSP
 * allows blob: images). Shared by the navbar, the settings page and the user info page.
 */
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { queryClient as defaultQueryClient } from './query-client';
import { ApiError, getBlob } from './request';
import { hasToken } from './session';
import { useUserStore } from '@/stores/user-store';

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

/** An object URL for the avatar (undefined while loading, when absent or on failure). */
export function useAvatarUrl(): string | undefined {
  // Only with a session (see useUnreadCount: no refetch while logging out), and only when
  // user info says there is an image: asking anyway logs a 404 on every page.
  const hasAvatar = useUserStore((state) => state.info.hasAvatar === true);
  const { data } = useQuery({ ...avatarQueryOptions(), enabled: hasToken() && hasAvatar });
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!data) {
      // The object URL is an outside resource made and revoked with the blob: an effect's job.
      // eslint-disable-next-line react-hooks/set-state-in-effect
      setUrl(undefined);
      return;
    }
    const objectUrl = URL.createObjectURL(data);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [data]);
  return url;
}

/** After an upload: fetch the new image everywhere it is shown. */
export function invalidateAvatar(client: QueryClient = defaultQueryClient): Promise<void> {
  useUserStore.getState().setUserInfo({ hasAvatar: true });
  return client.invalidateQueries({ queryKey: AVATAR_QUERY_KEY });
}
