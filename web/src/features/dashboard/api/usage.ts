import { queryOptions, useQuery } from '@tanstack/react-query';

import { call } from '@/lib/api-client';

/** GET /teams/usage/daily?window=… */
export const getDailyUsage = (window: string, signal?: AbortSignal) =>
  call('get', '/teams/usage/daily', { query: { window }, signal });

export const dailyUsageQueryOptions = (window = '30d') =>
  queryOptions({ queryKey: ['usage', 'daily', window], queryFn: ({ signal }) => getDailyUsage(window, signal), retry: false });

export function useDailyUsage(window = '30d') {
  return useQuery(dailyUsageQueryOptions(window));
}
