/**
 * The signed-in user's avatar as an object URL, and refreshing it after an upload. Reads the
 * user store (whether there is an image at all), so it lives above lib/avatar's fetcher.
 */
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { AVATAR_QUERY_KEY, avatarQueryOptions } from '@/lib/avatar';
import { queryClient as defaultQueryClient } from '@/lib/query-client';
import { hasToken } from '@/lib/session';
import { useUserStore } from '@/stores/user-store';

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
