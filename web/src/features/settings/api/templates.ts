import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api-client';
import type { OutreachTemplateItem, OutreachTemplateResponse } from '@/lib/api-types';

// Outreach templates (SPEC §3 "Template"): the five built-in ones and the team's own,
// usable as outreachTemplateId when an email is generated. The list itself is the
// outreach feature's query (['outreach', 'templates']).

export type OutreachTemplate = OutreachTemplateItem;
export type TemplateInput = { name: string; description: string | null; template: string };

const ROUTE = '/outreach/templates';
const templatesQueryKey = ['outreach', 'templates'] as const;

/** POST /outreach/templates */
export const createTemplate = (input: TemplateInput) =>
  apiRequest<OutreachTemplateResponse>(ROUTE, { method: 'POST', body: input });

/** PATCH /outreach/templates/{id} */
export const updateTemplate = ({ id, ...input }: TemplateInput & { id: string }) =>
  apiRequest<OutreachTemplateResponse>(`${ROUTE}/${encodeURIComponent(id)}`, { method: 'PATCH', body: input });

/** DELETE /outreach/templates/{id} */
export const deleteTemplate = (id: string) => apiRequest<unknown>(`${ROUTE}/${encodeURIComponent(id)}`, { method: 'DELETE' });

function useInvalidating<TInput, TOutput>(mutationFn: (input: TInput) => Promise<TOutput>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => client.invalidateQueries({ queryKey: templatesQueryKey }) });
}

export const useCreateTemplate = () => useInvalidating(createTemplate);
export const useUpdateTemplate = () => useInvalidating(updateTemplate);
export const useDeleteTemplate = () => useInvalidating(deleteTemplate);

export const TEMPLATE_NAME_MIN = 3;
export const TEMPLATE_NAME_MAX = 100;

/** The name rule of SPEC §5 with the server's message: 3 to 100 characters once trimmed. */
export function templateNameError(name: string): string | null {
  const length = [...name.trim()].length;
  return length < TEMPLATE_NAME_MIN || length > TEMPLATE_NAME_MAX
    ? `Template name must be between ${TEMPLATE_NAME_MIN} and ${TEMPLATE_NAME_MAX} characters`
    : null;
}
