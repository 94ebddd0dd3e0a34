import { mutationOptions, useMutation } from '@tanstack/react-query';
import { LOGOUT_URL, postJson } from '@/lib/request';
import { logout } from '../session-actions';

export { LOGOUT_URL };

/** POST /adminapi/login/logout (no body). */
export function postLogout(): Promise<null> {
  return postJson<null>(LOGOUT_URL);
}

/** Logs out; the local session is cleared whatever the server answers. */
export const logoutMutationOptions = () => mutationOptions({ mutationKey: ['logout'], mutationFn: () => logout() });

export function useLogout() {
  return useMutation(logoutMutationOptions());
}
