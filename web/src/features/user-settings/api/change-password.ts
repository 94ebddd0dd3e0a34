import { mutationOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateInbox } from '@/lib/inbox';
import { type ApiSchema, post } from '@/lib/request';

export const CHANGE_PASSWORD_URL = '/adminapi/merchant/changePassword';

export type ChangePasswordRequest = ApiSchema<'ChangePasswordRequest'>;

export type PasswordChanged = ApiSchema<'PasswordChanged'>;

/** POST /adminapi/merchant/changePassword; this session stays, the others end. */
export function changePassword(request: ChangePasswordRequest): Promise<PasswordChanged> {
  return post(CHANGE_PASSWORD_URL, request);
}

export const changePasswordMutationOptions = () =>
  mutationOptions({ mutationKey: ['change-password'], mutationFn: changePassword });

/** A change sends a notice to the user's inbox: the badge is refreshed at once. */
export function useChangePassword() {
  const client = useQueryClient();
  return useMutation({
    ...changePasswordMutationOptions(),
    onSuccess: (result) => {
      if (result.changed) void invalidateInbox(client);
    },
  });
}
