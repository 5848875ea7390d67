import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api-client';

// The signed-in user's preferences (SPEC §3 "User preferences"). The server's object is
// strict: unknown keys are refused, so the app only ever sends these.

export type ResultsViewPreference = 'list' | 'table';

export type UserPreferences = {
  projects?: { favoriteProjectIds?: string[]; lastSelectedProjectSlug?: string };
  showAdditionalPodcastDirectories?: boolean;
  search?: {
    /** Search filters by their wire names, as a search body carries them. */
    defaultSearchFilters?: Record<string, unknown>;
    defaultResultsView?: ResultsViewPreference;
    export?: { columnsToNotExport?: string[] };
  };
};

const PREFERENCES_ROUTE = '/users/preferences';

export const preferencesQueryKey = ['user', 'preferences'] as const;

/** GET /users/preferences */
export const getPreferences = (signal?: AbortSignal) =>
  apiRequest<{ preferences: UserPreferences }>(PREFERENCES_ROUTE, { signal }).then((data) => data.preferences ?? {});

/** PUT /users/preferences: replaces the whole object; the answer is what was stored. */
export const putPreferences = (preferences: UserPreferences) =>
  apiRequest<{ preferences: UserPreferences }>(PREFERENCES_ROUTE, { method: 'PUT', body: preferences }).then((data) => data.preferences ?? preferences);

export const preferencesQueryOptions = (enabled = true) =>
  queryOptions({ queryKey: preferencesQueryKey, queryFn: ({ signal }) => getPreferences(signal), enabled, retry: false, staleTime: 60_000 });

export const usePreferences = (enabled = true) => useQuery(preferencesQueryOptions(enabled));

/** Saves the preferences; the cache holds the new ones at once and the stored ones after. */
export function useSavePreferences() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: putPreferences,
    onMutate: async (next) => {
      await client.cancelQueries({ queryKey: preferencesQueryKey });
      const previous = client.getQueryData<UserPreferences>(preferencesQueryKey);
      client.setQueryData(preferencesQueryKey, next);
      return { previous };
    },
    onError: (_error, _next, context) => {
      if (context?.previous !== undefined) client.setQueryData(preferencesQueryKey, context.previous);
    },
    onSuccess: (stored) => client.setQueryData(preferencesQueryKey, stored),
  });
}

/** The preferences with the favourite projects replaced, other keys kept. */
export function withFavoriteProjects(preferences: UserPreferences, favoriteProjectIds: string[]): UserPreferences {
  return { ...preferences, projects: { ...preferences.projects, favoriteProjectIds } };
}

/** The preferences with the search part replaced, other keys kept. */
export function withSearch(preferences: UserPreferences, search: NonNullable<UserPreferences['search']>): UserPreferences {
  return { ...preferences, search: { ...preferences.search, ...search } };
}
