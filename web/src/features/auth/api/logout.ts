import { mutationOptions, useMutation } from '@tanstack/react-query';
import { logout } from '../session-actions';

export { LOGOUT_URL } from '@/lib/request';
export { postLogout } from './sign-in-requests';

/** Logs out; the local session is cleared whatever the server answers. */
export const logoutMutationOptions = () => mutationOptions({ mutationKey: ['logout'], mutationFn: () => logout() });

export function useLogout() {
  return useMutation(logoutMutationOptions());
}
