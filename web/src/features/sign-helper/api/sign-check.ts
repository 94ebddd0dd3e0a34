import { mutationOptions, useMutation } from '@tanstack/react-query';
import { postJson } from '@/lib/request';

export const SIGN_CHECK_URL = '/adminapi/apikey/signCheck';

export interface SignCheckRequest {
  key_id: string;
  method: string;
  path: string;
  timestamp: string;
  nonce: string;
  body: string;
  signature?: string;
}

export interface SignCheckResult {
  string_to_sign: string;
  body_sha256: string;
  /** Null when no signature was given. */
  matches: boolean | null;
}

/** POST /adminapi/apikey/signCheck: the server signs; the secret never reaches the browser. */
export function signCheck(request: SignCheckRequest): Promise<SignCheckResult> {
  return postJson<SignCheckResult>(SIGN_CHECK_URL, request);
}

export const signCheckMutationOptions = () => mutationOptions({ mutationKey: ['sign-check'], mutationFn: signCheck });

export function useSignCheck() {
  return useMutation(signCheckMutationOptions());
}
