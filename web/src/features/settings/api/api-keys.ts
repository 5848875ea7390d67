import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api-client';
import type { ApiKeyInfo, ApiKeysResponse, CreatedApiKey, RevokedApiKey } from '@/lib/api-types';

// The team's API keys; the answers' types are generated from the server's OpenAPI document.

/** One key of the team, revoked ones included. The key itself is never listed. */
export type ApiKeySummary = ApiKeyInfo;
/** GET /teams/api-keys: newest first. */
export type ListApiKeysResponse = ApiKeysResponse;
/** POST /teams/api-keys: the only answer that ever carries the whole key. */
export type CreateApiKeyResponse = CreatedApiKey;
/** DELETE /teams/api-keys/{keyId} */
export type RevokeApiKeyResponse = RevokedApiKey;

const API_KEYS_ROUTE = '/teams/api-keys';

export const apiKeysQueryKey = ['team', 'api-keys'] as const;

/** GET /teams/api-keys */
export const getApiKeys = (signal?: AbortSignal) => apiRequest<ListApiKeysResponse>(API_KEYS_ROUTE, { signal });

/** POST /teams/api-keys (no body): 403 with the server's message when the plan has no API access. */
export const createApiKey = () => apiRequest<CreateApiKeyResponse>(API_KEYS_ROUTE, { method: 'POST' });

/** DELETE /teams/api-keys/{keyId}: 404 `API key not found: {keyId}` for an unknown key. */
export const revokeApiKey = (keyId: string) =>
  apiRequest<RevokeApiKeyResponse>(`${API_KEYS_ROUTE}/${encodeURIComponent(keyId)}`, { method: 'DELETE' });

export const apiKeysQueryOptions = () =>
  queryOptions({ queryKey: apiKeysQueryKey, queryFn: ({ signal }) => getApiKeys(signal), retry: false });

export const useApiKeys = () => useQuery(apiKeysQueryOptions());

export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    // The answer holds the whole key: drop it from the mutation cache as soon as the screen lets go.
    gcTime: 0,
    onSuccess: () => client.invalidateQueries({ queryKey: apiKeysQueryKey }),
  });
}

export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({ mutationFn: revokeApiKey, onSuccess: () => client.invalidateQueries({ queryKey: apiKeysQueryKey }) });
}
