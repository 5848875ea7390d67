import { useState } from 'react';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { usePreferences, useSavePreferences, withFavoriteProjects } from '@/features/settings/api/preferences';
import { ApiClientError, apiRequest, call, downloadRequest, errorText, type ResponseData } from '@/lib/api-client';

export const LISTED_PODCAST_STATES = ['prospect', 'qualified', 'pitched', 'lost', 'booked', 'ignored'] as const;
export type ListedPodcastState = (typeof LISTED_PODCAST_STATES)[number];

export const PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;
export type Priority = (typeof PRIORITIES)[number];

export const PROJECT_TYPES = [
  'advertisers',
  'api',
  'content-creation',
  'guest-booking',
  'interesting-podcasts',
  'lead-generation',
  'monitoring',
  'other',
  'transcriptions',
] as const;
export type ProjectType = (typeof PROJECT_TYPES)[number];

/** GET /projects; `pinnedIds` come first in the server's order (SPEC §4). */
export const getProjects = (pinnedIds: readonly string[] = [], signal?: AbortSignal) =>
  apiRequest<ResponseData<'get', '/projects'>>('/projects', { query: { pinnedIds: pinnedIds.length > 0 ? pinnedIds.join(',') : undefined }, signal });

export const projectsQueryOptions = (enabled = true, pinnedIds: readonly string[] = []) =>
  queryOptions({ queryKey: ['projects', { pinnedIds }], queryFn: ({ signal }) => getProjects(pinnedIds, signal), enabled, retry: false });

export function useProjects(enabled = true, pinnedIds: readonly string[] = []) {
  return useQuery(projectsQueryOptions(enabled, pinnedIds));
}

// Pinned projects are the user's favourite projects in their server preferences; a server
// without the preferences route keeps them in this browser instead.
const PINNED_STORAGE = 'podlens.pinnedProjects';

export function readPinnedProjects(): string[] {
  try {
    const value: unknown = JSON.parse(window.localStorage.getItem(PINNED_STORAGE) ?? '[]');
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

export function writePinnedProjects(ids: string[]): void {
  try {
    window.localStorage.setItem(PINNED_STORAGE, JSON.stringify(ids));
  } catch {
    // Storage unavailable: pins last for this page only.
  }
}

export type PinnedProjects = {
  /** Ids of the pinned projects, in pinning order. */
  pinned: string[];
  /** False until the preferences have been read (or found missing). */
  ready: boolean;
  /** Where pins are kept: the user's server preferences or this browser. */
  storedIn: 'server' | 'browser';
  toggle: (projectId: string) => void;
  /** The last save's failure, if any. */
  error: unknown;
};

/** The pinned projects: the server's favoriteProjectIds when it has preferences, else this browser's list. */
export function usePinnedProjects(): PinnedProjects {
  const preferences = usePreferences();
  const save = useSavePreferences();
  const [local, setLocal] = useState<string[]>(readPinnedProjects);
  const onServer = preferences.isSuccess;
  const pinned = onServer ? (preferences.data.projects?.favoriteProjectIds ?? []) : local;
  const toggle = (projectId: string) => {
    const next = pinned.includes(projectId) ? pinned.filter((id) => id !== projectId) : [...pinned, projectId];
    if (onServer) {
      save.mutate(withFavoriteProjects(preferences.data, next));
    } else {
      writePinnedProjects(next);
      setLocal(next);
    }
  };
  return { pinned, ready: onServer || preferences.isError, storedIn: onServer ? 'server' : 'browser', toggle, error: save.error };
}

/** GET /projects/{slug}/details */
export const getProjectDetails = (slug: string, signal?: AbortSignal) =>
  call('get', '/projects/{projectSlug}/details', { path: { projectSlug: slug }, signal });

export const projectDetailsQueryOptions = (slug: string) =>
  queryOptions({ queryKey: ['projects', slug], queryFn: ({ signal }) => getProjectDetails(slug, signal), retry: false });

export function useProjectDetails(slug: string) {
  return useQuery(projectDetailsQueryOptions(slug));
}

export type CreateProjectInput = { name: string; projectTypes: ProjectType[]; projectPurpose?: string };

/** PUT /projects creates a project. */
export const createProject = (input: CreateProjectInput) =>
  apiRequest<{ project: { slug: string; projectId: string } }>('/projects', { method: 'PUT', body: input });

export function useCreateProject() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createProject, onSuccess: () => client.invalidateQueries({ queryKey: ['projects'] }) });
}

export type AddPodcastInput = { projectSlug: string; podcastId: string; state?: ListedPodcastState; priority?: Priority | null; labels?: string[] };

/** POST /projects/{slug}/podcasts */
export const addPodcastToProject = ({ projectSlug, ...body }: AddPodcastInput) =>
  apiRequest<unknown>(`/projects/${encodeURIComponent(projectSlug)}/podcasts`, { method: 'POST', body });

export function useAddPodcastToProject() {
  const client = useQueryClient();
  return useMutation({ mutationFn: addPodcastToProject, onSuccess: () => client.invalidateQueries({ queryKey: ['projects'] }) });
}

/** The projects podcasts are added to: the ACTIVE ones of SPEC §4's project statuses
 * (archived ones are done with; draft, pending and failed ones are still being made). */
export const activeProjects = <T extends { status: string }>(projects: readonly T[]): T[] =>
  projects.filter((project) => project.status === 'ACTIVE');

/** The server's refusal of a podcast the project already lists: 400 "Podcast {id} is already listed in this project". */
export const isAlreadyListed = (error: unknown): boolean =>
  error instanceof ApiClientError && error.httpStatus === 400 && /already listed/i.test(error.serverMessage ?? '');

export type BulkAddOutcome = {
  added: string[];
  alreadyListed: string[];
  failed: { podcastId: string; message: string }[];
};

/** Adds podcasts to a project one POST /projects/{slug}/podcasts at a time, as prospects,
 * and says which were added, which the project already had and which failed (and why). */
export async function addPodcastsToProject({ projectSlug, podcastIds }: { projectSlug: string; podcastIds: readonly string[] }): Promise<BulkAddOutcome> {
  const outcome: BulkAddOutcome = { added: [], alreadyListed: [], failed: [] };
  for (const podcastId of podcastIds) {
    try {
      await addPodcastToProject({ projectSlug, podcastId, state: 'prospect' });
      outcome.added.push(podcastId);
    } catch (error) {
      if (isAlreadyListed(error)) outcome.alreadyListed.push(podcastId);
      else outcome.failed.push({ podcastId, message: errorText(error) });
    }
  }
  return outcome;
}

export function useAddPodcastsToProject() {
  const client = useQueryClient();
  return useMutation({ mutationFn: addPodcastsToProject, onSettled: () => client.invalidateQueries({ queryKey: ['projects'] }) });
}

/** Labels a listed podcast can carry (the server's enumeration). */
export const LISTED_PODCAST_LABELS = ['automated', 'guest-appearance', 'mcp'] as const;
export type ListedPodcastLabel = (typeof LISTED_PODCAST_LABELS)[number];

export type UpdateListedPodcastInput = {
  projectSlug: string;
  listedPodcastId: string;
  state?: ListedPodcastState;
  priority?: Priority | null;
  /** Replaces the labels. */
  labels?: string[];
};

/** PATCH /projects/{slug}/podcasts/{listedPodcastId} */
export const updateListedPodcast = ({ projectSlug, listedPodcastId, ...body }: UpdateListedPodcastInput) =>
  apiRequest<unknown>(`/projects/${encodeURIComponent(projectSlug)}/podcasts/${encodeURIComponent(listedPodcastId)}`, {
    method: 'PATCH',
    body,
  });

type ListedPodcastsData = { listedPodcasts: ListedPodcast[]; total?: number };

/** A listed podcast with the update applied, as the board shows it before the server answers. */
export function applyListedUpdate(listed: ListedPodcast, update: UpdateListedPodcastInput): ListedPodcast {
  if (listed.listedPodcastId !== update.listedPodcastId) return listed;
  return {
    ...listed,
    ...(update.state !== undefined ? { status: update.state } : {}),
    ...(update.priority !== undefined ? { priority: update.priority } : {}),
    ...(update.labels !== undefined ? { labels: update.labels } : {}),
  };
}

/** Updates a listed podcast: the board shows the change at once, and goes back if the server refuses it. */
export function useUpdateListedPodcast() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateListedPodcast,
    onMutate: async (update) => {
      const queryKey = ['projects', update.projectSlug, 'podcasts'];
      await client.cancelQueries({ queryKey });
      const previous = client.getQueriesData<ListedPodcastsData>({ queryKey });
      client.setQueriesData<ListedPodcastsData>({ queryKey }, (data) =>
        data ? { ...data, listedPodcasts: data.listedPodcasts.map((listed) => applyListedUpdate(listed, update)) } : data,
      );
      return { previous };
    },
    onError: (_error, _update, context) => context?.previous.forEach(([key, data]) => client.setQueryData(key, data)),
    onSettled: () => client.invalidateQueries({ queryKey: ['projects'] }),
  });
}

/** The project list order of SPEC §4: pinned first, then ACTIVE, then newest lastUpdated. */
export function sortProjects<T extends { projectId: string; status: string; lastUpdated: unknown }>(projects: T[], pinnedIds: string[] = []): T[] {
  const time = (value: unknown) => {
    const parsed = Date.parse(String(value));
    return Number.isNaN(parsed) ? 0 : parsed;
  };
  return [...projects].sort((a, b) => {
    const pinned = Number(pinnedIds.includes(b.projectId)) - Number(pinnedIds.includes(a.projectId));
    if (pinned !== 0) return pinned;
    const active = Number(b.status === 'ACTIVE') - Number(a.status === 'ACTIVE');
    if (active !== 0) return active;
    return time(b.lastUpdated) - time(a.lastUpdated);
  });
}

/** One change to a listed podcast (SPEC §3 activityHistory). */
export type ActivityEntry = {
  actionType: 'added-to-list' | 'update-labels' | 'update-priority' | 'update-state' | string;
  activityDate: string;
  fromValue: string | null;
  toValue: string | null;
  userId?: string | null;
  userDisplayName?: string | null;
};

/** A podcast on a project (SPEC §3 "Listed podcast"). */
export type ListedPodcast = {
  listedPodcastId: string;
  projectId: string;
  podcast: { podcastId: string; titleOriginal: string | null; titleLatest: string | null; slug: string; imageUrl: string | null };
  status: ListedPodcastState;
  priority: Priority | null;
  labels: string[];
  addedAt: string;
  updatedAt: string;
  activityHistory?: ActivityEntry[];
};

/** The title a listed podcast is shown under: the feed's latest, else the one it was added with. */
export const listedTitle = (listed: ListedPodcast): string => listed.podcast.titleLatest ?? listed.podcast.titleOriginal ?? listed.podcast.slug;

/** Which priorities a board shows: `none` is the podcasts without one; empty means all. */
export type PriorityFilter = (Priority | 'none')[];

/** GET /projects/{slug}/podcasts/details, with `priorities` left out when all are chosen (SPEC §7). */
export const getListedPodcasts = (slug: string, priorities: PriorityFilter = [], signal?: AbortSignal) =>
  apiRequest<{ listedPodcasts: ListedPodcast[]; total?: number }>(`/projects/${encodeURIComponent(slug)}/podcasts/details`, {
    query: { priorities: priorities.length > 0 && priorities.length < PRIORITIES.length + 1 ? priorities.join(',') : undefined },
    signal,
  });

export const listedPodcastsQueryOptions = (slug: string, priorities: PriorityFilter = []) =>
  queryOptions({
    queryKey: ['projects', slug, 'podcasts', { priorities }],
    queryFn: ({ signal }) => getListedPodcasts(slug, priorities, signal),
    retry: false,
  });

export function useListedPodcasts(slug: string, priorities: PriorityFilter = []) {
  return useQuery(listedPodcastsQueryOptions(slug, priorities));
}

/** DELETE /projects/{slug}/podcasts/{listedPodcastId} */
export const removeListedPodcast = ({ projectSlug, listedPodcastId }: { projectSlug: string; listedPodcastId: string }) =>
  call('delete', '/projects/{projectSlug}/podcasts/{listedPodcastId}', { path: { projectSlug, listedPodcastId } });

export function useRemoveListedPodcast() {
  const client = useQueryClient();
  return useMutation({ mutationFn: removeListedPodcast, onSuccess: () => client.invalidateQueries({ queryKey: ['projects'] }) });
}

/** The export column groups of SPEC §7, in the server's wire names. */
export const EXPORT_COLUMNS = [
  { value: 'basicInfo', label: 'Basic info' },
  { value: 'description', label: 'Description' },
  { value: 'location', label: 'Location' },
  { value: 'website', label: 'Website' },
  { value: 'contactDetails', label: 'Contact details' },
  { value: 'socials', label: 'Socials' },
  { value: 'appleReviews', label: 'Apple reviews' },
  { value: 'spotifyReviews', label: 'Spotify reviews' },
  { value: 'castboxListens', label: 'Castbox listens' },
  { value: 'authorityScore', label: 'Authority score' },
] as const;
export type ExportColumn = (typeof EXPORT_COLUMNS)[number]['value'];
export type ExportFormat = 'csv' | 'json';

export type ExportListedInput = { projectId: string; columns: ExportColumn[]; format: ExportFormat; states: ListedPodcastState[] };

/** POST /export/project/{projectId}/listed-podcasts: the file, states filter left out when all are chosen. */
export const exportListedPodcasts = ({ projectId, columns, format, states }: ExportListedInput) =>
  downloadRequest(`/export/project/${encodeURIComponent(projectId)}/listed-podcasts`, {
    method: 'POST',
    body: {
      columns,
      format,
      ...(states.length > 0 && states.length < LISTED_PODCAST_STATES.length ? { listedPodcastStatesFilter: states } : {}),
    },
  });

/** Priority order ascending with a missing priority last (SPEC §4). */
export function comparePriority(a: Priority | null, b: Priority | null): number {
  const rank = (p: Priority | null) => (p === null ? PRIORITIES.length : PRIORITIES.indexOf(p));
  return rank(a) - rank(b);
}
