import { queryOptions, useQuery } from '@tanstack/react-query';

import { call } from '@/lib/api-client';

export type LatestEpisodesQuery = {
  categories?: string[];
  podcastImageRequired?: boolean;
  hasTranscript?: boolean;
  language?: string;
};

/** GET /episodes/latest: the latest 150 episodes, grouped by podcast. */
export const getLatestEpisodes = (query: LatestEpisodesQuery = {}, signal?: AbortSignal) =>
  call('get', '/episodes/latest', {
    query: {
      categories: query.categories?.join(','),
      podcastImageRequired: query.podcastImageRequired,
      hasTranscript: query.hasTranscript,
      language: query.language,
    },
    signal,
  });

export const latestEpisodesQueryOptions = (query: LatestEpisodesQuery = {}) =>
  queryOptions({
    queryKey: ['episodes', 'latest', query],
    queryFn: ({ signal }) => getLatestEpisodes(query, signal),
    staleTime: 5 * 60_000,
  });

export function useLatestEpisodes(query: LatestEpisodesQuery = {}) {
  return useQuery(latestEpisodesQueryOptions(query));
}
