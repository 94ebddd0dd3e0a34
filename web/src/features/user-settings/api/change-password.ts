import { mutationOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateInbox } from '@/lib/inbox';
import { post } from '@/lib/request';

export const CHANGE_PASSWORD_URL = '/adminapi/merchant/changePassword';

export interface ChangePasswordRequest {
  current_password: string;
  /** Blank: no change. */
  new_password: string;
}

export interface PasswordChanged {
  changed: boolean;
  /** How many other sessions of the user the change signed out. */
  other_sessions_ended: number;
}

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
