import { queryOptions, useQuery } from '@tanstack/react-query';

import { call } from '@/lib/api-client';

/** GET /teams/transcriptions */
export const getTranscriptionRequests = (signal?: AbortSignal) =>
  call('get', '/teams/transcriptions', { query: { limit: 100, skip: 0 }, signal });

export const transcriptionRequestsQueryOptions = () =>
  queryOptions({ queryKey: ['transcriptions'], queryFn: ({ signal }) => getTranscriptionRequests(signal), retry: false });

export const useTranscriptionRequests = () => useQuery(transcriptionRequestsQueryOptions());
