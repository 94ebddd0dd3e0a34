import { mutationOptions, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiSchema, post } from '@/lib/request';

export const API_KEY_LIST_URL = '/adminapi/apikey/list';
export const API_KEY_CREATE_URL = '/adminapi/apikey/create';
export const API_KEY_REVOKE_URL = '/adminapi/apikey/revoke';
export const API_KEY_SET_LEGACY_URL = '/adminapi/apikey/setLegacy';
export const API_KEYS_QUERY_KEY = ['api-keys'] as const;

/** One open-API key as listed (the secret is never listed). */
export type ApiKeyItem = ApiSchema<'KeyItem'>;

export type CreateApiKeyRequest = ApiSchema<'CreateKeyRequest'>;

/** The new key: the secret is in this answer only. */
export type CreatedApiKey = ApiSchema<'CreatedKey'>;

/** POST /adminapi/apikey/list: a merchant's own keys; an administrator's view lists every merchant's. */
export function listApiKeys(): Promise<ApiKeyItem[]> {
  return post(API_KEY_LIST_URL, {});
}

export const apiKeysQueryOptions = () => queryOptions({ queryKey: API_KEYS_QUERY_KEY, queryFn: listApiKeys });

export function useApiKeys() {
  return useQuery(apiKeysQueryOptions());
}

/** POST /adminapi/apikey/create {password, code?}. */
export function createApiKey(request: CreateApiKeyRequest): Promise<CreatedApiKey> {
  return post(API_KEY_CREATE_URL, request);
}

/** POST /adminapi/apikey/revoke {key_id}. */
export function revokeApiKey(keyId: string): Promise<null> {
  return post(API_KEY_REVOKE_URL, { key_id: keyId });
}

export const createApiKeyMutationOptions = () =>
  mutationOptions({ mutationKey: ['api-key-create'], mutationFn: createApiKey });
export const revokeApiKeyMutationOptions = () =>
  mutationOptions({ mutationKey: ['api-key-revoke'], mutationFn: revokeApiKey });

export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    ...createApiKeyMutationOptions(),
    onSuccess: () => client.invalidateQueries({ queryKey: API_KEYS_QUERY_KEY }),
  });
}

export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    ...revokeApiKeyMutationOptions(),
    onSuccess: () => client.invalidateQueries({ queryKey: API_KEYS_QUERY_KEY }),
  });
}

export type SetApiKeyLegacyRequest = ApiSchema<'SetLegacyRequest'>;

/** POST /adminapi/apikey/setLegacy {key_id, enabled}: administrators only, audited. */
export function setApiKeyLegacy(request: SetApiKeyLegacyRequest): Promise<null> {
  return post(API_KEY_SET_LEGACY_URL, request);
}

export const setApiKeyLegacyMutationOptions = () =>
  mutationOptions({ mutationKey: ['api-key-set-legacy'], mutationFn: setApiKeyLegacy });

export function useSetApiKeyLegacy() {
  const client = useQueryClient();
  return useMutation({
    ...setApiKeyLegacyMutationOptions(),
    onSuccess: () => client.invalidateQueries({ queryKey: API_KEYS_QUERY_KEY }),
  });
}
