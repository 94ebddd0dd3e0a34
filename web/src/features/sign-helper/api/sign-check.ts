import { mutationOptions, useMutation } from '@tanstack/react-query';
import { type ApiSchema, post } from '@/lib/request';

export const SIGN_CHECK_URL = '/adminapi/apikey/signCheck';

export type SignCheckRequest = ApiSchema<'SignCheckRequest'>;
/** `matches` is null or absent when no signature was given. */
export type SignCheckResult = ApiSchema<'SignCheckResponse'>;

/** POST /adminapi/apikey/signCheck: the server signs; the secret never reaches the browser. */
export function signCheck(request: SignCheckRequest): Promise<SignCheckResult> {
  return post(SIGN_CHECK_URL, request);
}

export const signCheckMutationOptions = () => mutationOptions({ mutationKey: ['sign-check'], mutationFn: signCheck });

export function useSignCheck() {
  return useMutation(signCheckMutationOptions());
}
