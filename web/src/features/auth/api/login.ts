import { mutationOptions, useMutation } from '@tanstack/react-query';
import { type PostBody, postJson } from '@/lib/request';
import type { LoginInfo } from '@/lib/session';
import { login } from '../session-actions';

export const LOGIN_URL = '/adminapi/login/login';

export interface LoginCredentials {
  username: string;
  password: string;
}

export interface LoginResult {
  token: string;
  loginfo: LoginInfo;
  expires_at: string;
}

/** The password was right but two-factor is on: the code goes to verify2FA with this token. */
export interface TwoFactorChallenge {
  need_2fa: true;
  pending_token: string;
  expires_at: string;
}

export type LoginAnswer = LoginResult | TwoFactorChallenge;

export function isTwoFactorChallenge(answer: LoginAnswer | null | undefined): answer is TwoFactorChallenge {
  return Boolean(answer && (answer as Partial<TwoFactorChallenge>).need_2fa === true);
}

/** POST /adminapi/login/login: a session, or a two-factor challenge. */
export function postLogin(credentials: LoginCredentials): Promise<LoginAnswer> {
  return postJson<LoginAnswer>(LOGIN_URL, credentials satisfies PostBody<typeof LOGIN_URL>);
}

/** Logs in and stores the session, or answers the two-factor challenge (see session-actions.login). */
export const loginMutationOptions = () =>
  mutationOptions({ mutationKey: ['login'], mutationFn: (credentials: LoginCredentials) => login(credentials) });

export function useLogin() {
  return useMutation(loginMutationOptions());
}
