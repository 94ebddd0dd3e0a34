import { mutationOptions, useMutation } from '@tanstack/react-query';
import { post } from '@/lib/request';
import type { TwoFactorCodeForm } from './types';

export const DISABLE_URL = '/adminapi/google-auth/disable2FA';

/** POST /adminapi/google-auth/disable2FA with an authenticator or backup code; the answer is not read. */
export async function postDisableTwoFactor(form: TwoFactorCodeForm): Promise<void> {
  await post(DISABLE_URL, { code: form.code }, { quietErrors: true });
}

export const disableMutationOptions = () =>
  mutationOptions({ mutationKey: ['two-factor', 'disable'], mutationFn: postDisableTwoFactor });

export function useDisableTwoFactor() {
  return useMutation(disableMutationOptions());
}
