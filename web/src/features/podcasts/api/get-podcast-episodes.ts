import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';

import { call } from '@/lib/api-client';
import type { GetPodcastEpisodesResponse } from '@/lib/api-types';

/** The episodes listing's page size: the API allows at most 100. */
export const EPISODES_PAGE_SIZE = 20;

/** GET /podcasts/{podcastIdOrSlug}/episodes?skip&limit&hasTranscript */
export const getPodcastEpisodes = (
  idOrSlug: string,
  page: { skip: number; limit: number; hasTranscript?: boolean },
  signal?: AbortSignal,
) =>
  call('get', '/podcasts/{podcastIdOrSlug}/episodes', {
    path: { podcastIdOrSlug: idOrSlug },
    query: { skip: page.skip, limit: page.limit, hasTranscript: page.hasTranscript },
    signal,
  });

export const podcastEpisodesQueryOptions = (idOrSlug: string, hasTranscript?: boolean) =>
  infiniteQueryOptions({
    queryKey: ['podcasts', idOrSlug, 'episodes', hasTranscript ?? null],
    queryFn: ({ pageParam, signal }) =>
      getPodcastEpisodes(idOrSlug, { skip: pageParam, limit: EPISODES_PAGE_SIZE, hasTranscript }, signal),
    initialPageParam: 0,
    getNextPageParam: (last: GetPodcastEpisodesResponse, pages: GetPodcastEpisodesResponse[]) => {
      const loaded = pages.reduce((sum, page) => sum + page.podcastWithEpisodes.episodes.length, 0);
      const total = hasTranscript ? last.totalTranscripts : last.totalEpisodes;
      return last.podcastWithEpisodes.episodes.length > 0 && loaded < total ? loaded : undefined;
    },
  });

export function usePodcastEpisodes(idOrSlug: string, hasTranscript?: boolean) {
  return useInfiniteQuery(podcastEpisodesQueryOptions(idOrSlug, hasTranscript));
}
