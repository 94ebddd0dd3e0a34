import { mutationOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { post, type PostBody } from '@/lib/request';
import { useUserStore } from '@/stores/user-store';
import { PROFILE_QUERY_KEY, type Profile } from './get-profile';

export const CHANGE_INFO_URL = '/adminapi/merchant/changeInfo';

/** The profile form as the server takes it (the four first fields are required). */
export type ChangeInfoRequest = PostBody<typeof CHANGE_INFO_URL>;

/**
 * POST /adminapi/merchant/changeInfo: saves the whole form; answers with the stored (normalised)
 * profile. The integration settings have their own form (change-integration): left out here,
 * the server keeps them.
 */
export function changeInfo(request: ChangeInfoRequest): Promise<Profile> {
  return post(CHANGE_INFO_URL, request);
}

export const changeInfoMutationOptions = () =>
  mutationOptions({ mutationKey: ['change-info'], mutationFn: changeInfo });

/** Saves the profile, caches the answer and updates the name shown in the navbar. */
export function useChangeInfo() {
  const client = useQueryClient();
  return useMutation({
    ...changeInfoMutationOptions(),
    onSuccess: (profile) => {
      client.setQueryData(PROFILE_QUERY_KEY, profile);
      useUserStore.getState().setUserInfo({ name: profile.nickname, email: profile.email });
      void client.invalidateQueries({ queryKey: ['user-info'] });
    },
  });
}
