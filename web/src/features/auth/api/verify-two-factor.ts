import { mutationOptions, useMutation } from '@tanstack/react-query';
import { verifyTwoFactorLogin } from '../session-actions';
import type { TwoFactorLoginRequest } from './sign-in-requests';

export { postVerifyTwoFactor, VERIFY_2FA_URL, type TwoFactorLoginRequest } from './sign-in-requests';

/** Verifies the code and stores the session (see session-actions.verifyTwoFactorLogin). */
export const verifyTwoFactorMutationOptions = () =>
  mutationOptions({
    mutationKey: ['login', 'verify2FA'],
    mutationFn: (body: TwoFactorLoginRequest) => verifyTwoFactorLogin(body),
  });

export function useVerifyTwoFactor() {
  return useMutation(verifyTwoFactorMutationOptions());
}
