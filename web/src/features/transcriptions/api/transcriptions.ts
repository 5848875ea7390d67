import { queryOptions, useQuery } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api-client';
import type { GetTranscriptionRequestsResponse } from '@/lib/api-types';

/** GET /teams/transcriptions */
export const getTranscriptionRequests = (signal?: AbortSignal) =>
  apiRequest<GetTranscriptionRequestsResponse>('/teams/transcriptions', { query: { limit: 100, skip: 0 }, signal });

export const transcriptionRequestsQueryOptions = () =>
  queryOptions({ queryKey: ['transcriptions'], queryFn: ({ signal }) => getTranscriptionRequests(signal), retry: false });

export const useTranscriptionRequests = () => useQuery(transcriptionRequestsQueryOptions());
