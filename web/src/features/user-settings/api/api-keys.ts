import { mutationOptions, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { postJson } from '@/lib/request';

export const API_KEY_LIST_URL = '/adminapi/apikey/list';
export const API_KEY_CREATE_URL = '/adminapi/apikey/create';
export const API_KEY_REVOKE_URL = '/adminapi/apikey/revoke';
export const API_KEY_SET_LEGACY_URL = '/adminapi/apikey/setLegacy';
export const API_KEYS_QUERY_KEY = ['api-keys'] as const;

/** One open-API key as listed (the secret is never listed). */
export interface ApiKeyItem {
  key_id: string;
  mid: number;
  created_at: string;
  created_by: string | null;
  last_used_at: string | null;
  last_used_address: string | null;
  state: 'active' | 'revoked';
  revoked_at: string | null;
  /** Whether the key also accepts legacy MD5 signatures (an administrator's switch). */
  legacy_md5: boolean;
}

export interface CreateApiKeyRequest {
  password: string;
  code?: string;
}

/** The new key: the secret is in this answer only. */
export interface CreatedApiKey {
  key_id: string;
  secret: string;
}

/** POST /adminapi/apikey/list: a merchant's own keys; an administrator's view lists every merchant's. */
export function listApiKeys(): Promise<ApiKeyItem[]> {
  return postJson<ApiKeyItem[]>(API_KEY_LIST_URL, {});
}

export const apiKeysQueryOptions = () => queryOptions({ queryKey: API_KEYS_QUERY_KEY, queryFn: listApiKeys });

export function useApiKeys() {
  return useQuery(apiKeysQueryOptions());
}

/** POST /adminapi/apikey/create {password, code?}. */
export function createApiKey(request: CreateApiKeyRequest): Promise<CreatedApiKey> {
  return postJson<CreatedApiKey>(API_KEY_CREATE_URL, request);
}

/** POST /adminapi/apikey/revoke {key_id}. */
export function revokeApiKey(keyId: string): Promise<null> {
  return postJson<null>(API_KEY_REVOKE_URL, { key_id: keyId });
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

export interface SetApiKeyLegacyRequest {
  key_id: string;
  enabled: boolean;
}

/** POST /adminapi/apikey/setLegacy {key_id, enabled}: administrators only, audited. */
export function setApiKeyLegacy(request: SetApiKeyLegacyRequest): Promise<null> {
  return postJson<null>(API_KEY_SET_LEGACY_URL, request);
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
