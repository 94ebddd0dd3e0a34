import { mutationOptions, useMutation } from '@tanstack/react-query';
import { postJson } from '@/lib/request';
import { verifyTwoFactorLogin } from '../session-actions';
import type { LoginResult } from './login';

export const VERIFY_2FA_URL = '/adminapi/login/verify2FA';

export interface TwoFactorLoginRequest {
  pending_token: string;
  /** A 6-digit authenticator code or an 8-digit backup code. */
  code: string;
}

/** POST /adminapi/login/verify2FA: the second sign-in step; answers like an ordinary login. */
export function postVerifyTwoFactor(body: TwoFactorLoginRequest): Promise<LoginResult> {
  return postJson<LoginResult>(VERIFY_2FA_URL, body);
}

/** Verifies the code and stores the session (see session-actions.verifyTwoFactorLogin). */
export const verifyTwoFactorMutationOptions = () =>
  mutationOptions({
    mutationKey: ['login', 'verify2FA'],
    mutationFn: (body: TwoFactorLoginRequest) => verifyTwoFactorLogin(body),
  });

export function useVerifyTwoFactor() {
  return useMutation(verifyTwoFactorMutationOptions());
}
