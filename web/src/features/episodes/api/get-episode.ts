import { queryOptions, useQuery } from '@tanstack/react-query';

import { call } from '@/lib/api-client';

/** GET /episodes/{episodeId}/details */
export const getEpisode = (episodeId: string, signal?: AbortSignal) =>
  call('get', '/episodes/{episodeId}/details', { path: { episodeId }, signal });

export const episodeQueryOptions = (episodeId: string | null) =>
  queryOptions({
    queryKey: ['episodes', episodeId],
    queryFn: ({ signal }) => getEpisode(episodeId!, signal),
    enabled: episodeId !== null,
  });

export function useEpisode(episodeId: string | null) {
  return useQuery(episodeQueryOptions(episodeId));
}

/** GET /episodes/{episodeId}/transcript-text/preview: the start of the transcript (free) */
export const getTranscriptPreview = (episodeId: string, signal?: AbortSignal) =>
  call('get', '/episodes/{episodeId}/transcript-text/preview', { path: { episodeId }, signal });

export const transcriptPreviewQueryOptions = (episodeId: string | null, enabled: boolean) =>
  queryOptions({
    queryKey: ['episodes', episodeId, 'transcript-preview'],
    queryFn: ({ signal }) => getTranscriptPreview(episodeId!, signal),
    enabled: enabled && episodeId !== null,
    retry: false,
  });

export function useTranscriptPreview(episodeId: string | null, enabled: boolean) {
  return useQuery(transcriptPreviewQueryOptions(episodeId, enabled));
}

/** GET /episodes/{episodeId}/transcript-text (signed in; counts as one transcript download) */
export const getTranscriptText = (episodeId: string, signal?: AbortSignal) =>
  call('get', '/episodes/{episodeId}/transcript-text', { path: { episodeId }, signal });

export const transcriptQueryOptions = (episodeId: string | null, enabled: boolean) =>
  queryOptions({
    queryKey: ['episodes', episodeId, 'transcript'],
    queryFn: ({ signal }) => getTranscriptText(episodeId!, signal),
    enabled: enabled && episodeId !== null,
    retry: false,
  });

export function useTranscriptText(episodeId: string | null, enabled: boolean) {
  return useQuery(transcriptQueryOptions(episodeId, enabled));
}
