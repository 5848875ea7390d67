import { queryOptions, useQuery } from '@tanstack/react-query';

import { call } from '@/lib/api-client';

/** GET /teams/usage/current: the caller's plan and what it has used this period. */
export const getCurrentUsage = (signal?: AbortSignal, apiKey?: string) =>
  call('get', '/teams/usage/current', { signal, apiKey });

export const currentUsageQueryOptions = (apiKey: string | null) =>
  queryOptions({
    queryKey: ['usage', 'current', apiKey],
    queryFn: ({ signal }) => getCurrentUsage(signal),
    enabled: apiKey !== null,
    retry: false,
    staleTime: 60_000,
  });

export function useCurrentUsage(apiKey: string | null) {
  return useQuery(currentUsageQueryOptions(apiKey));
}
