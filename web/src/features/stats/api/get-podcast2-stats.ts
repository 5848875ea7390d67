import { queryOptions, useQuery } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api-client';
import type { GetRssStatsPodcast2Response } from '@/lib/api-types';

/** GET /rss/stats/public/podcast2: Podcasting 2.0 tag adoption across the catalog. */
export const getPodcast2Stats = (signal?: AbortSignal) =>
  apiRequest<GetRssStatsPodcast2Response>('/rss/stats/public/podcast2', { signal });

export const podcast2StatsQueryOptions = () =>
  queryOptions({ queryKey: ['rss-stats', 'podcast2'], queryFn: ({ signal }) => getPodcast2Stats(signal), staleTime: 10 * 60_000 });

export function usePodcast2Stats() {
  return useQuery(podcast2StatsQueryOptions());
}
