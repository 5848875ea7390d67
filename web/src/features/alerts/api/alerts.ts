import { queryOptions, useQuery } from '@tanstack/react-query';

import { call } from '@/lib/api-client';

/** GET /alerts/alert-configs */
export const getAlertConfigs = (signal?: AbortSignal) => call('get', '/alerts/alert-configs', { signal });

export const alertConfigsQueryOptions = () => queryOptions({ queryKey: ['alerts'], queryFn: ({ signal }) => getAlertConfigs(signal), retry: false });

export const useAlertConfigs = () => useQuery(alertConfigsQueryOptions());
