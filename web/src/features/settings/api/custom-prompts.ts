import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api-client';

// The team's custom prompts (SPEC §3 "Custom prompt"): run by the AI assist over a
// podcast, an episode or a transcript.

export const CONTEXT_TYPES = ['podcast', 'episode', 'transcript'] as const;
export type ContextType = (typeof CONTEXT_TYPES)[number];

export type CustomPrompt = {
  id: string;
  name: string;
  description: string | null;
  contextType: ContextType;
  prompt: string;
  createdAt?: string;
  updatedAt?: string;
};

export type CustomPromptInput = { name: string; description: string | null; contextType: ContextType; prompt: string };

const ROUTE = '/teams/custom-prompts';
export const customPromptsQueryKey = ['team', 'custom-prompts'] as const;

/** GET /teams/custom-prompts */
export const getCustomPrompts = (signal?: AbortSignal) => apiRequest<{ customPrompts: CustomPrompt[] }>(ROUTE, { signal });

/** POST /teams/custom-prompts */
export const createCustomPrompt = (input: CustomPromptInput) =>
  apiRequest<{ customPrompt: CustomPrompt }>(ROUTE, { method: 'POST', body: input });

/** PATCH /teams/custom-prompts/{id} */
export const updateCustomPrompt = ({ id, ...input }: CustomPromptInput & { id: string }) =>
  apiRequest<{ customPrompt: CustomPrompt }>(`${ROUTE}/${encodeURIComponent(id)}`, { method: 'PATCH', body: input });

/** DELETE /teams/custom-prompts/{id} */
export const deleteCustomPrompt = (id: string) => apiRequest<unknown>(`${ROUTE}/${encodeURIComponent(id)}`, { method: 'DELETE' });

export const customPromptsQueryOptions = () =>
  queryOptions({ queryKey: customPromptsQueryKey, queryFn: ({ signal }) => getCustomPrompts(signal), retry: false });

export const useCustomPrompts = () => useQuery(customPromptsQueryOptions());

function useInvalidating<TInput, TOutput>(mutationFn: (input: TInput) => Promise<TOutput>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => client.invalidateQueries({ queryKey: customPromptsQueryKey }) });
}

export const useCreateCustomPrompt = () => useInvalidating(createCustomPrompt);
export const useUpdateCustomPrompt = () => useInvalidating(updateCustomPrompt);
export const useDeleteCustomPrompt = () => useInvalidating(deleteCustomPrompt);

export const PROMPT_NAME_MIN = 3;
export const PROMPT_NAME_MAX = 100;

/** The name rule of SPEC §5 with the server's message: 3 to 100 characters once trimmed. */
export function customPromptNameError(name: string): string | null {
  const length = [...name.trim()].length;
  return length < PROMPT_NAME_MIN || length > PROMPT_NAME_MAX
    ? `Custom prompt name must be between ${PROMPT_NAME_MIN} and ${PROMPT_NAME_MAX} characters`
    : null;
}
