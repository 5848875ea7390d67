import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';

import { ApiClientError, searchRequest } from '@/lib/api-client';
import type {
  EpisodeSearchOptions,
  PodcastSearchOptions,
  SearchEpisodesResponse,
  SearchPodcastsResponse,
} from '@/lib/api-types';

export type SearchRequest =
  | { mode: 'podcasts'; body: PodcastSearchOptions }
  | { mode: 'episodes'; body: EpisodeSearchOptions };

export type SearchPage = SearchPodcastsResponse | SearchEpisodesResponse;

/** One page of a search; a refusal becomes an ApiClientError carrying the §8 message
 * and the HTTP status (the screen explains a 429 as the plan's limit). */
export async function runSearch(request: SearchRequest, cursor?: string | null, signal?: AbortSignal): Promise<SearchPage> {
  const body = cursor ? { ...request.body, cursor } : request.body;
  const outcome = await searchRequest<SearchPage>(`/search/${request.mode}`, body, signal);
  if (!outcome.success) throw new ApiClientError(outcome.error, { httpStatus: outcome.httpStatus });
  return outcome.data;
}

export const searchQueryOptions = (request: SearchRequest | null) =>
  infiniteQueryOptions({
    queryKey: ['search', request],
    queryFn: ({ pageParam, signal }) => runSearch(request!, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: SearchPage) => last.cursor ?? undefined,
    enabled: request !== null,
    retry: false,
    staleTime: 60_000,
  });

export function useSearch(request: SearchRequest | null) {
  return useInfiniteQuery(searchQueryOptions(request));
}
