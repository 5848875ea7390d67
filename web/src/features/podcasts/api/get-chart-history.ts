import { queryOptions, useQuery } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api-client';
import type { GetPodcastChartHistoryResponse, GetPodcastChartPresenceResponse } from '@/lib/api-types';

/** GET /podcasts/{podcastIdOrSlug}/charts/presence: every chart the podcast is or was on. */
export const getChartPresence = (idOrSlug: string, signal?: AbortSignal) =>
  apiRequest<GetPodcastChartPresenceResponse>(`/podcasts/${encodeURIComponent(idOrSlug)}/charts/presence`, { signal });

export const chartPresenceQueryOptions = (idOrSlug: string) =>
  queryOptions({ queryKey: ['podcasts', idOrSlug, 'charts', 'presence'], queryFn: ({ signal }) => getChartPresence(idOrSlug, signal), retry: false });

export const useChartPresence = (idOrSlug: string) => useQuery(chartPresenceQueryOptions(idOrSlug));

/** The history windows the server offers (GET /charts/podcast-history `range`). */
export const CHART_HISTORY_RANGES = [
  { value: '30d', label: '30 days' },
  { value: '90d', label: '90 days' },
  { value: '6m', label: '6 months' },
  { value: '1y', label: 'A year' },
  { value: 'all', label: 'All time' },
] as const;
export type ChartHistoryRange = (typeof CHART_HISTORY_RANGES)[number]['value'];

export type ChartHistoryQuery = { podcastIdOrSlug: string; chartType: string; country: string; category: string; range: ChartHistoryRange };

/** GET /charts/podcast-history: one podcast's positions on one chart over a range. */
export const getChartHistory = (query: ChartHistoryQuery, signal?: AbortSignal) =>
  apiRequest<GetPodcastChartHistoryResponse>('/charts/podcast-history', { query: { identityType: 'podcast', ...query }, signal });

export const chartHistoryQueryOptions = (query: ChartHistoryQuery) =>
  queryOptions({ queryKey: ['charts', 'podcast-history', query], queryFn: ({ signal }) => getChartHistory(query, signal), retry: false });

export const useChartHistory = (query: ChartHistoryQuery | null) =>
  useQuery({ ...chartHistoryQueryOptions(query ?? { podcastIdOrSlug: '', chartType: '', country: '', category: '', range: '30d' }), enabled: query !== null });
