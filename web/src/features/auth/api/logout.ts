import { mutationOptions, useMutation } from '@tanstack/react-query';
import { postJson } from '@/lib/request';
import { logout } from '../session-actions';

export const LOGOUT_URL = '/adminapi/login/logout';

/** POST /adminapi/login/logout (no body). */
export function postLogout(): Promise<null> {
  return postJson<null>(LOGOUT_URL);
}

/** Logs out; the local session is cleared whatever the server answers. */
export const logoutMutationOptions = () => mutationOptions({ mutationKey: ['logout'], mutationFn: () => logout() });

export function useLogout() {
  return useMutation(logoutMutationOptions());
}
