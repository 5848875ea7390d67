import { queryOptions, useQuery } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api-client';
import type { GetLatestPodcastsResponse } from '@/lib/api-types';

/** GET /podcasts/latest */
export const getLatestPodcasts = (hasTranscripts: boolean | undefined, signal?: AbortSignal) =>
  apiRequest<GetLatestPodcastsResponse>('/podcasts/latest', { query: { hasTranscripts }, signal });

export const latestPodcastsQueryOptions = (hasTranscripts?: boolean) =>
  queryOptions({ queryKey: ['podcasts', 'latest', hasTranscripts ?? null], queryFn: ({ signal }) => getLatestPodcasts(hasTranscripts, signal) });

export const useLatestPodcasts = (hasTranscripts?: boolean) => useQuery(latestPodcastsQueryOptions(hasTranscripts));
