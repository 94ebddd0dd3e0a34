import { mutationOptions, useMutation } from '@tanstack/react-query';
import { type PostBody, post } from '@/lib/request';

export const ENABLE_URL = '/adminapi/google-auth/enable2FA';

export interface EnableRequest {
  code: string;
  tempKey: string;
  /** The current password: a session alone must not be enough to bind an authenticator. */
  password: string;
}

/** POST /adminapi/google-auth/enable2FA; resolves with the backup codes now in force. */
export async function postEnableTwoFactor({ code, tempKey, password }: EnableRequest): Promise<string[]> {
  const answer = await post(ENABLE_URL, { code, temp_key: tempKey, password } satisfies PostBody<typeof ENABLE_URL>, {
    quietErrors: true,
  });
  return answer?.backup_codes ?? [];
}

export const enableMutationOptions = () =>
  mutationOptions({ mutationKey: ['two-factor', 'enable'], mutationFn: postEnableTwoFactor });

export function useEnableTwoFactor() {
  return useMutation(enableMutationOptions());
}
