import { mutationOptions, useMutation } from '@tanstack/react-query';
import { login } from '../session-actions';
import type { LoginCredentials } from './sign-in-requests';

export {
  isTwoFactorChallenge,
  LOGIN_URL,
  postLogin,
  type LoginAnswer,
  type LoginCredentials,
  type LoginResult,
  type TwoFactorChallenge,
} from './sign-in-requests';

/** Logs in and stores the session, or answers the two-factor challenge (see session-actions.login). */
export const loginMutationOptions = () =>
  mutationOptions({ mutationKey: ['login'], mutationFn: (credentials: LoginCredentials) => login(credentials) });

export function useLogin() {
  return useMutation(loginMutationOptions());
}
