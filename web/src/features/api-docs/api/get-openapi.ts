import { queryOptions, useQuery } from '@tanstack/react-query';

import { API_BASE, ApiClientError, apiRequest, NETWORK_ERROR_MESSAGE, requestFailedMessage } from '@/lib/api-client';

export type OpenApiOperation = { summary?: string; description?: string; tags?: string[]; operationId?: string; parameters?: { name: string; in: string; required?: boolean; description?: string }[] };
export type OpenApiDocument = { info?: { title?: string; version?: string; description?: string }; paths?: Record<string, Record<string, OpenApiOperation>> };

/** GET /openapi.json: the document itself, not wrapped in the envelope. */
export async function getOpenApi(signal?: AbortSignal): Promise<OpenApiDocument> {
  let response: Response;
  try {
    response = await fetch(`${API_BASE}/openapi.json`, { signal, headers: { Accept: 'application/json' } });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiClientError(NETWORK_ERROR_MESSAGE);
  }
  const text = await response.text();
  if (!response.ok) {
    let serverMessage: string | null = null;
    try {
      serverMessage = (JSON.parse(text) as { data?: { message?: string } }).data?.message ?? null;
    } catch {
      serverMessage = null;
    }
    throw new ApiClientError(requestFailedMessage(text), { httpStatus: response.status, serverMessage });
  }
  return JSON.parse(text) as OpenApiDocument;
}

export const openApiQueryOptions = () => queryOptions({ queryKey: ['openapi'], queryFn: ({ signal }) => getOpenApi(signal), staleTime: Infinity, retry: false });

export function useOpenApi() {
  return useQuery(openApiQueryOptions());
}

export type Health = { status: string; version?: string };

/** GET /public/health */
export const getHealth = (signal?: AbortSignal) => apiRequest<Health>('/public/health', { signal });

export const healthQueryOptions = () => queryOptions({ queryKey: ['health'], queryFn: ({ signal }) => getHealth(signal), refetchInterval: 30_000, retry: false });

export function useHealth() {
  return useQuery(healthQueryOptions());
}
