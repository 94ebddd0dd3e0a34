import { mutationOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiSchema, post } from '@/lib/request';
import { PROFILE_QUERY_KEY, type Profile } from './get-profile';

export const SECURITY_URL = '/adminapi/merchant/security';

export type SecurityRequest = ApiSchema<'SecurityRequest'>;

/** POST /adminapi/merchant/security; answers with the new profile. */
export function saveSecurity(request: SecurityRequest): Promise<Profile> {
  return post(SECURITY_URL, request);
}

export const saveSecurityMutationOptions = () =>
  mutationOptions({ mutationKey: ['save-security'], mutationFn: saveSecurity });

export function useSaveSecurity() {
  const client = useQueryClient();
  return useMutation({
    ...saveSecurityMutationOptions(),
    onSuccess: (profile) => client.setQueryData(PROFILE_QUERY_KEY, profile),
  });
}
