import { mutationOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiSchema, post } from '@/lib/request';
import { PROFILE_QUERY_KEY, type Profile } from './get-profile';

export const CHANGE_INTEGRATION_URL = '/adminapi/merchant/changeIntegration';

/** The integration settings form (later the API keys join it). */
export type ChangeIntegrationRequest = ApiSchema<'IntegrationRequest'>;

/** POST /adminapi/merchant/changeIntegration: saves exactly these fields; answers with the stored profile. */
export function changeIntegration(request: ChangeIntegrationRequest): Promise<Profile> {
  return post(CHANGE_INTEGRATION_URL, request);
}

export const changeIntegrationMutationOptions = () =>
  mutationOptions({ mutationKey: ['change-integration'], mutationFn: changeIntegration });

/** Saves the integration settings and caches the stored profile. */
export function useChangeIntegration() {
  const client = useQueryClient();
  return useMutation({
    ...changeIntegrationMutationOptions(),
    onSuccess: (profile) => client.setQueryData(PROFILE_QUERY_KEY, profile),
  });
}
