import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api-client';

// The team's webhooks (the integrations section): endpoints that receive signed deliveries.

/** The events a webhook can subscribe to, with what each one delivers. */
export const WEBHOOK_EVENTS = [{ value: 'alert_match', label: 'Alert matches', description: 'an alert matched new episodes' }] as const;

export type Webhook = { webhookId: string; url: string; events: string[]; createdAt: string; createdByUserId?: string };

/** One delivery (its latest state): the id is the same on every attempt. */
export type WebhookDelivery = {
  deliveryId: string;
  event: string;
  alertConfigId: string;
  status: 'pending' | 'sending' | 'sent' | 'failed' | string;
  attempts: number;
  createdAt: string;
  nextAttemptAt: string;
  sentAt: string | null;
  lastError: string | null;
};

const ROUTE = '/teams/webhooks';
export const webhooksQueryKey = ['team', 'webhooks'] as const;

/** GET /teams/webhooks: never the secrets. */
export const getWebhooks = (signal?: AbortSignal) => apiRequest<{ webhooks: Webhook[] }>(ROUTE, { signal });

/** POST /teams/webhooks: the only answer that carries the signing secret. */
export const createWebhook = (input: { url: string; events: string[] }) =>
  apiRequest<{ webhook: Webhook; secret: string }>(ROUTE, { method: 'POST', body: input });

/** DELETE /teams/webhooks/{webhookId} */
export const deleteWebhook = (webhookId: string) => apiRequest<unknown>(`${ROUTE}/${encodeURIComponent(webhookId)}`, { method: 'DELETE' });

/** GET /teams/webhooks/{webhookId}/deliveries: the latest deliveries, newest first. */
export const getWebhookDeliveries = (webhookId: string, signal?: AbortSignal) =>
  apiRequest<{ deliveries: WebhookDelivery[] }>(`${ROUTE}/${encodeURIComponent(webhookId)}/deliveries`, { signal });

export const useWebhookDeliveries = (webhookId: string) =>
  useQuery({ queryKey: [...webhooksQueryKey, webhookId, 'deliveries'], queryFn: ({ signal }) => getWebhookDeliveries(webhookId, signal), retry: false });

export const webhooksQueryOptions = () => queryOptions({ queryKey: webhooksQueryKey, queryFn: ({ signal }) => getWebhooks(signal), retry: false });

export const useWebhooks = () => useQuery(webhooksQueryOptions());

export function useCreateWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createWebhook,
    // The answer holds the secret: drop it from the mutation cache as soon as the screen lets go.
    gcTime: 0,
    onSuccess: () => client.invalidateQueries({ queryKey: webhooksQueryKey }),
  });
}

export function useDeleteWebhook() {
  const client = useQueryClient();
  return useMutation({ mutationFn: deleteWebhook, onSuccess: () => client.invalidateQueries({ queryKey: webhooksQueryKey }) });
}

/** A URL the server can post to: http or https with a host. */
export function webhookUrlError(text: string): string | null {
  try {
    const url = new URL(text.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'The URL must start with http:// or https://';
    return url.hostname ? null : 'The URL needs a host name';
  } catch {
    return 'Enter the full URL of the endpoint, e.g. https://example.com/podlens';
  }
}
