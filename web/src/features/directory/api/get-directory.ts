import { queryOptions, useQuery } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api-client';
import type { PodcastSummary } from '@/lib/api-types';

/** The directory list's default limit (SPEC §9). */
export const DIRECTORY_PAGE_SIZE = 100;

export type DirectoryPage = { podcasts: PodcastSummary[]; total?: number };

/** GET /podcasts/directory/{letter}: podcasts whose title starts with the letter. */
export const getDirectory = (letter: string, skip: number, signal?: AbortSignal) =>
  apiRequest<DirectoryPage>(`/podcasts/directory/${encodeURIComponent(letter)}`, {
    query: { limit: DIRECTORY_PAGE_SIZE, skip },
    signal,
  });

export const directoryQueryOptions = (letter: string, skip = 0, enabled = true) =>
  queryOptions({
    queryKey: ['directory', letter, skip],
    queryFn: ({ signal }) => getDirectory(letter, skip, signal),
    enabled,
    retry: false,
  });

/** Disabled for anything but a directory letter: no call is made for it. */
export function useDirectory(letter: string, skip = 0, enabled = true) {
  return useQuery(directoryQueryOptions(letter, skip, enabled));
}
