import { queryOptions, useQuery } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api-client';
import type { GetAlertConfigsResponse } from '@/lib/api-types';

/** GET /alerts/alert-configs */
export const getAlertConfigs = (signal?: AbortSignal) => apiRequest<GetAlertConfigsResponse>('/alerts/alert-configs', { signal });

export const alertConfigsQueryOptions = () => queryOptions({ queryKey: ['alerts'], queryFn: ({ signal }) => getAlertConfigs(signal), retry: false });

export const useAlertConfigs = () => useQuery(alertConfigsQueryOptions());
