import { queryOptions, useQuery } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api-client';

/** One generated outreach email (SPEC §3 "Outreach history"). */
export type OutreachItem = {
  id: string;
  createdAt: string;
  podcast?: { podcastId?: string; title?: string; slug?: string } | null;
  project?: { projectId?: string; slug?: string; name?: string } | null;
  subject: string;
  body?: string;
};

/** GET /outreach/history?podcastId&guestProfileId */
export const getOutreachHistory = (filters: { podcastId?: string; guestProfileId?: string }, signal?: AbortSignal) =>
  apiRequest<{ outreachHistory: OutreachItem[] }>('/outreach/history', { query: filters, signal });

/** GET /outreach/{id}/details */
export const getOutreachDetails = (id: string, signal?: AbortSignal) =>
  apiRequest<{ outreach: OutreachItem }>(`/outreach/${encodeURIComponent(id)}/details`, { signal });

export const outreachHistoryQueryOptions = (filters: { podcastId?: string; guestProfileId?: string } = {}) =>
  queryOptions({ queryKey: ['outreach', filters], queryFn: ({ signal }) => getOutreachHistory(filters, signal), retry: false });

export const outreachDetailsQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['outreach', id], queryFn: ({ signal }) => getOutreachDetails(id, signal), retry: false });

export const useOutreachHistory = (filters: { podcastId?: string; guestProfileId?: string } = {}) => useQuery(outreachHistoryQueryOptions(filters));
export const useOutreachDetails = (id: string) => useQuery(outreachDetailsQueryOptions(id));
