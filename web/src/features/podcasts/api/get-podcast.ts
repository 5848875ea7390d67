import { queryOptions, useQuery } from '@tanstack/react-query';

import { apiRequest, call } from '@/lib/api-client';
import type {
  GetPodcastChartsResponse,
  GetPodcastContactsResponse,
  GetPodcastGuestsResponse,
  GetPodcastRelatedPodcastsResponse,
  GetPodcastReviewsResponse,
  GetPodcastSocialMediaDetailsResponse,
} from '@/lib/api-types';

const base = (idOrSlug: string) => `/podcasts/${encodeURIComponent(idOrSlug)}`;

/** GET /podcasts/{podcastIdOrSlug} */
export const getPodcast = (idOrSlug: string, signal?: AbortSignal) =>
  call('get', '/podcasts/{podcastIdOrSlug}', { path: { podcastIdOrSlug: idOrSlug }, signal });

export const podcastQueryOptions = (idOrSlug: string) =>
  queryOptions({ queryKey: ['podcasts', idOrSlug], queryFn: ({ signal }) => getPodcast(idOrSlug, signal) });

export function usePodcast(idOrSlug: string) {
  return useQuery(podcastQueryOptions(idOrSlug));
}

/** GET /podcasts/authority-score/{podcastId}/details: the sub-scores with their weights;
 * a sub-score of weight 0 had no data and is left out of the score (docs/authority-score.md). */
export const getAuthorityScoreDetails = (idOrSlug: string, signal?: AbortSignal) =>
  call('get', '/podcasts/authority-score/{podcastId}/details', { path: { podcastId: idOrSlug }, signal });

export const authorityScoreDetailsQueryOptions = (idOrSlug: string) =>
  queryOptions({
    queryKey: ['podcasts', idOrSlug, 'authority-score-details'],
    queryFn: ({ signal }) => getAuthorityScoreDetails(idOrSlug, signal),
    retry: false,
  });

export function useAuthorityScoreDetails(idOrSlug: string, enabled = true) {
  return useQuery({ ...authorityScoreDetailsQueryOptions(idOrSlug), enabled });
}

/** One of the podcast's sub-resources: GET /podcasts/{podcastIdOrSlug}/{part}. */
function subResource<T>(part: string, query?: Record<string, string | number | boolean | undefined>) {
  const fetcher = (idOrSlug: string, signal?: AbortSignal) =>
    apiRequest<T>(`${base(idOrSlug)}/${part}`, { query, signal });
  const options = (idOrSlug: string) =>
    queryOptions({
      queryKey: ['podcasts', idOrSlug, part, query ?? null],
      queryFn: ({ signal }) => fetcher(idOrSlug, signal),
      retry: false,
    });
  const hook = (idOrSlug: string, enabled = true) => useQuery({ ...options(idOrSlug), enabled });
  return { fetcher, options, hook };
}

const reviews = subResource<GetPodcastReviewsResponse>('reviews');
export const getPodcastReviews = reviews.fetcher;
export const podcastReviewsQueryOptions = reviews.options;
export const usePodcastReviews = reviews.hook;

const contacts = subResource<GetPodcastContactsResponse>('contacts');
export const getPodcastContacts = contacts.fetcher;
export const podcastContactsQueryOptions = contacts.options;
export const usePodcastContacts = contacts.hook;

const social = subResource<GetPodcastSocialMediaDetailsResponse>('social-media');
export const getPodcastSocialMedia = social.fetcher;
export const podcastSocialMediaQueryOptions = social.options;
export const usePodcastSocialMedia = social.hook;

const related = subResource<GetPodcastRelatedPodcastsResponse>('related-podcasts');
export const getRelatedPodcasts = related.fetcher;
export const relatedPodcastsQueryOptions = related.options;
export const useRelatedPodcasts = related.hook;

const charts = subResource<GetPodcastChartsResponse>('charts', { limit: 100 });
export const getPodcastCharts = charts.fetcher;
export const podcastChartsQueryOptions = charts.options;
export const usePodcastCharts = charts.hook;

const guests = subResource<GetPodcastGuestsResponse>('guests');
export const getPodcastGuests = guests.fetcher;
export const podcastGuestsQueryOptions = guests.options;
export const usePodcastGuests = guests.hook;
