import { queryOptions, useQuery } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api-client';
import type { GetDailyUsageResponse } from '@/lib/api-types';

/** GET /teams/usage/daily?window=… */
export const getDailyUsage = (window: string, signal?: AbortSignal) =>
  apiRequest<GetDailyUsageResponse>('/teams/usage/daily', { query: { window }, signal });

export const dailyUsageQueryOptions = (window = '30d') =>
  queryOptions({ queryKey: ['usage', 'daily', window], queryFn: ({ signal }) => getDailyUsage(window, signal), retry: false });

export function useDailyUsage(window = '30d') {
  return useQuery(dailyUsageQueryOptions(window));
}
