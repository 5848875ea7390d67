import { queryOptions, useQueries } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api-client';
import type { SearchAutocompletePodcastsResponse } from '@/lib/api-types';

/** GET /autocomplete/podcasts?query (public): podcasts whose titles complete the query
 * (one typo allowed when nothing completes it), and the title words completing its last word. */
export const getAutocomplete = (query: string, signal?: AbortSignal) =>
  apiRequest<SearchAutocompletePodcastsResponse>('/autocomplete/podcasts', { query: { query }, signal });

export const wordSuggestionsQueryOptions = (word: string) =>
  queryOptions({
    queryKey: ['autocomplete', 'word', word],
    queryFn: ({ signal }) => getAutocomplete(word, signal),
    retry: false,
    staleTime: 5 * 60_000,
  });

/** What the index suggests for each word, in the order of `words`; a failed or pending
 * lookup is `undefined` (a spelling hint is a nicety, never an error on the page). */
export function useWordSuggestions(words: string[]) {
  return useQueries({
    queries: words.map((word) => wordSuggestionsQueryOptions(word)),
    combine: (results) => ({
      pending: results.some((result) => result.isPending),
      answers: results.map((result) => result.data),
    }),
  });
}
