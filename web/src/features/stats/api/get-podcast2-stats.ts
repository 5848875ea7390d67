import { queryOptions, useQuery } from '@tanstack/react-query';

import { call } from '@/lib/api-client';

/** GET /rss/stats/public/podcast2: Podcasting 2.0 tag adoption across the catalog. */
export const getPodcast2Stats = (signal?: AbortSignal) =>
  call('get', '/rss/stats/public/podcast2', { signal });

export const podcast2StatsQueryOptions = () =>
  queryOptions({ queryKey: ['rss-stats', 'podcast2'], queryFn: ({ signal }) => getPodcast2Stats(signal), staleTime: 10 * 60_000 });

export function usePodcast2Stats() {
  return useQuery(podcast2StatsQueryOptions());
}
