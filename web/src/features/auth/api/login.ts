import { mutationOptions, useMutation } from '@tanstack/react-query';
import { postJson } from '@/lib/request';
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

/** POST /adminapi/login/login. */
export function postLogin(credentials: LoginCredentials): Promise<LoginResult> {
  return postJson<LoginResult>(LOGIN_URL, credentials);
}

/** Logs in and stores the session (see session-actions.login). */
export const loginMutationOptions = () =>
  mutationOptions({ mutationKey: ['login'], mutationFn: (credentials: LoginCredentials) => login(credentials) });

export function useLogin() {
  return useMutation(loginMutationOptions());
}
