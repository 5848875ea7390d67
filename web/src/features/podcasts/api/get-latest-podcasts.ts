import { queryOptions, useQuery } from '@tanstack/react-query';

import { call } from '@/lib/api-client';

/** GET /podcasts/latest */
export const getLatestPodcasts = (hasTranscripts: boolean | undefined, signal?: AbortSignal) =>
  call('get', '/podcasts/latest', { query: { hasTranscripts }, signal });

export const latestPodcastsQueryOptions = (hasTranscripts?: boolean) =>
  queryOptions({ queryKey: ['podcasts', 'latest', hasTranscripts ?? null], queryFn: ({ signal }) => getLatestPodcasts(hasTranscripts, signal) });

export const useLatestPodcasts = (hasTranscripts?: boolean) => useQuery(latestPodcastsQueryOptions(hasTranscripts));
