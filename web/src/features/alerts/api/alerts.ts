import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { apiRequest, call, type RequestBody, type ResponseData } from '@/lib/api-client';

/** GET /alerts/alert-configs */
export const getAlertConfigs = (signal?: AbortSignal) => call('get', '/alerts/alert-configs', { signal });

export const alertConfigsQueryOptions = () => queryOptions({ queryKey: ['alerts'], queryFn: ({ signal }) => getAlertConfigs(signal), retry: false });

/** While `pollWhile` holds for the list last read, it is read again every FIRST_RUN_POLL_MS (a new alert's first run). */
export const useAlertConfigs = (pollWhile?: (data: ResponseData<'get', '/alerts/alert-configs'> | undefined) => boolean) =>
  useQuery({
    ...alertConfigsQueryOptions(),
    refetchInterval: (query) => (pollWhile?.(query.state.data) ? FIRST_RUN_POLL_MS : false),
  });

/** GET /alerts/matches?alertConfigId: the episodes an alert matched, newest first. */
export const getAlertMatches = (alertConfigId: string, signal?: AbortSignal) =>
  apiRequest<ResponseData<'get', '/alerts/matches'>>('/alerts/matches', { query: { alertConfigId }, signal });

/** While `pollMs` is set the matches are read again that often. */
export const useAlertMatches = (alertConfigId: string, pollMs?: number) =>
  useQuery({
    queryKey: ['alerts', alertConfigId, 'matches'],
    queryFn: ({ signal }) => getAlertMatches(alertConfigId, signal),
    retry: false,
    refetchInterval: pollMs ?? false,
  });

/** How often a page showing an alert whose first run has not finished looks again. */
export const FIRST_RUN_POLL_MS = 3000;
/** How long a page polls that often before falling back to MATCHES_POLL_MS. */
export const FIRST_RUN_POLL_LIMIT_MS = 2 * 60_000;
/** How often an open alert page looks for new matches (the server runs alerts every 5 minutes). */
export const MATCHES_POLL_MS = 60_000;

export const ALERT_TYPES = ['person', 'company', 'custom-keyword'] as const;
export type AlertType = (typeof ALERT_TYPES)[number];
export const EMAIL_FREQUENCIES = ['hourly', 'daily', 'weekly'] as const;
export type EmailFrequency = (typeof EMAIL_FREQUENCIES)[number];

export type AlertConfig = ResponseData<'get', '/alerts/alert-config/{alertConfigId}'>['alertConfig'];
export type CreateAlertInput = RequestBody<'post', '/alerts/alert-config'>;

/** What the edit form may change: PATCH takes `{updates: {...}}`. */
export type AlertUpdates = {
  alertName?: string;
  enabled?: boolean;
  emailSettings?: { frequency: EmailFrequency };
  /** Replaces the stored settings whole: send the ones to keep too. */
  alertSettings?: Record<string, unknown>;
};

/** GET /alerts/alert-config/{id} */
export const getAlertConfig = (alertConfigId: string, signal?: AbortSignal) =>
  call('get', '/alerts/alert-config/{alertConfigId}', { path: { alertConfigId }, signal });

export const alertConfigQueryOptions = (alertConfigId: string) =>
  queryOptions({ queryKey: ['alerts', alertConfigId, 'config'], queryFn: ({ signal }) => getAlertConfig(alertConfigId, signal), retry: false });

export const useAlertConfig = (alertConfigId: string, enabled = true) => useQuery({ ...alertConfigQueryOptions(alertConfigId), enabled });

/** POST /alerts/alert-config: refused with 403 once the plan's alert count is reached. */
export const createAlertConfig = (body: CreateAlertInput) => call('post', '/alerts/alert-config', { body });

/** PATCH /alerts/alert-config/{id} */
export const updateAlertConfig = ({ alertConfigId, updates }: { alertConfigId: string; updates: AlertUpdates }) =>
  apiRequest<{ updatedAlertConfig: AlertConfig }>(`/alerts/alert-config/${encodeURIComponent(alertConfigId)}`, {
    method: 'PATCH',
    body: { updates },
  });

export function useCreateAlertConfig() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createAlertConfig, onSuccess: () => client.invalidateQueries({ queryKey: ['alerts'] }) });
}

export function useUpdateAlertConfig() {
  const client = useQueryClient();
  return useMutation({ mutationFn: updateAlertConfig, onSuccess: () => client.invalidateQueries({ queryKey: ['alerts'] }) });
}
