import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { apiRequest, call } from '@/lib/api-client';

/** GET /teams/transcriptions */
export const getTranscriptionRequests = (signal?: AbortSignal) =>
  call('get', '/teams/transcriptions', { query: { limit: 100, skip: 0 }, signal });

export const transcriptionRequestsQueryOptions = () =>
  queryOptions({ queryKey: ['transcriptions'], queryFn: ({ signal }) => getTranscriptionRequests(signal), retry: false });

export const useTranscriptionRequests = () => useQuery(transcriptionRequestsQueryOptions());

/** GET /episodes/{episodeId}/transcription-request: asks for a transcript; the server says what it did. */
export const requestEpisodeTranscription = (episodeId: string) =>
  apiRequest<{ message: string }>(`/episodes/${encodeURIComponent(episodeId)}/transcription-request`);

export function useRequestEpisodeTranscription() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: requestEpisodeTranscription,
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['transcriptions'] });
      void client.invalidateQueries({ queryKey: ['team', 'request-history'] });
    },
  });
}
