import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api-client';
import type {
  OutreachHistoryEntry,
  OutreachHistoryResponse,
  OutreachOptions as GeneratedOutreachOptions,
  OutreachResponse,
  OutreachTemplatesResponse,
} from '@/lib/api-types';

// The answers' types are generated from the server's OpenAPI document; the generation
// request's body (read by the server as free JSON) is written out here.

/** The generation options of an outreach email; the server's wire names and values. */
export const PERSPECTIVES = ['first', 'third'] as const;
export const EMAIL_LENGTHS = ['short', 'medium', 'long'] as const;
export const CALL_TO_ACTION_STYLES = ['light', 'medium', 'heavy'] as const;
export const PERSONALIZATION_LEVELS = ['light', 'medium', 'heavy'] as const;

export type Perspective = (typeof PERSPECTIVES)[number];
export type EmailLength = (typeof EMAIL_LENGTHS)[number];
export type CallToActionStyle = (typeof CALL_TO_ACTION_STYLES)[number];
export type PersonalizationLevel = (typeof PERSONALIZATION_LEVELS)[number];

export type OutreachOptions = GeneratedOutreachOptions;

/** One generated outreach email (SPEC §3 "Outreach history"); `body` only in details. */
export type OutreachItem = OutreachHistoryEntry & { body?: string };

/** The guest the email pitches; without one the server pitches the signed-in user. */
export type OutreachGuest = {
  name?: string;
  companyName?: string;
  shortBio?: string;
  expertise?: string;
  topicsToDiscuss?: string[];
};

export type GenerateOutreachInput = OutreachOptions & {
  /** A podcast id or slug. */
  podcastId: string;
  /** The project the email is for: without a guest or guest profile, its guest is pitched. */
  projectId?: string;
  guestProfileId?: string;
  guest?: OutreachGuest;
  /** Who signs an email written on the guest's behalf; without it, the name the user chose in Settings, else "[Your name]". */
  senderName?: string;
};

/** A mailto: link to `to` (encoded: the address comes from feeds and websites), with the
 * email's subject and body when given: it opens the email, addressed, in the user's mail program. */
export function mailtoLink(to: string, email?: { subject: string; body: string }): string {
  const address = `mailto:${encodeURIComponent(to).replace(/%40/g, '@')}`;
  return email ? `${address}?subject=${encodeURIComponent(email.subject)}&body=${encodeURIComponent(email.body)}` : address;
}

export type OutreachTemplate = OutreachTemplatesResponse['templates'][number];

export type OutreachFilters = { podcastId?: string; guestProfileId?: string };

/** GET /outreach/history?podcastId&guestProfileId */
export const getOutreachHistory = (filters: OutreachFilters, signal?: AbortSignal) =>
  apiRequest<OutreachHistoryResponse>('/outreach/history', { query: filters, signal });

/** GET /outreach/{id}/details */
export const getOutreachDetails = (id: string, signal?: AbortSignal) =>
  apiRequest<OutreachResponse>(`/outreach/${encodeURIComponent(id)}/details`, { signal });

/** GET /outreach/templates: the built-in templates with their placeholders. */
export const getOutreachTemplates = (signal?: AbortSignal) =>
  apiRequest<OutreachTemplatesResponse>('/outreach/templates', { signal });

/** POST /outreach/generate: writes, stores and returns one email (one AI assist). */
export const generateOutreach = (input: GenerateOutreachInput) =>
  apiRequest<OutreachResponse>('/outreach/generate', { method: 'POST', body: input });

export const outreachHistoryQueryOptions = (filters: OutreachFilters = {}) =>
  queryOptions({ queryKey: ['outreach', 'history', filters], queryFn: ({ signal }) => getOutreachHistory(filters, signal), retry: false });

export const outreachDetailsQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['outreach', 'details', id], queryFn: ({ signal }) => getOutreachDetails(id, signal), retry: false });

export const outreachTemplatesQueryOptions = () =>
  queryOptions({ queryKey: ['outreach', 'templates'], queryFn: ({ signal }) => getOutreachTemplates(signal), retry: false, staleTime: Infinity });

export const useOutreachHistory = (filters: OutreachFilters = {}) => useQuery(outreachHistoryQueryOptions(filters));
export const useOutreachDetails = (id: string) => useQuery(outreachDetailsQueryOptions(id));
export const useOutreachTemplates = () => useQuery(outreachTemplatesQueryOptions());

export function useGenerateOutreach() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: generateOutreach,
    // The new email joins the history lists (all filters).
    onSuccess: () => client.invalidateQueries({ queryKey: ['outreach', 'history'] }),
  });
}
