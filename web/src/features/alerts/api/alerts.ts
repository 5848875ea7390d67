import { queryOptions, useQuery } from '@tanstack/react-query';

import { apiRequest, call, type ResponseData } from '@/lib/api-client';

/** GET /alerts/alert-configs */
export const getAlertConfigs = (signal?: AbortSignal) => call('get', '/alerts/alert-configs', { signal });

export const alertConfigsQueryOptions = () => queryOptions({ queryKey: ['alerts'], queryFn: ({ signal }) => getAlertConfigs(signal), retry: false });

export const useAlertConfigs = () => useQuery(alertConfigsQueryOptions());

/** GET /alerts/matches?alertConfigId: the episodes an alert matched, newest first. */
export const getAlertMatches = (alertConfigId: string, signal?: AbortSignal) =>
  apiRequest<ResponseData<'get', '/alerts/matches'>>('/alerts/matches', { query: { alertConfigId }, signal });

export const useAlertMatches = (alertConfigId: string) =>
  useQuery({ queryKey: ['alerts', alertConfigId, 'matches'], queryFn: ({ signal }) => getAlertMatches(alertConfigId, signal), retry: false });
