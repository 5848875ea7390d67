import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { apiRequest, call } from '@/lib/api-client';

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

/** GET /projects */
export const getProjects = (signal?: AbortSignal) => call('get', '/projects', { signal });

export const projectsQueryOptions = (enabled = true) =>
  queryOptions({ queryKey: ['projects'], queryFn: ({ signal }) => getProjects(signal), enabled, retry: false });

export function useProjects(enabled = true) {
  return useQuery(projectsQueryOptions(enabled));
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

export type UpdateListedPodcastInput = { projectSlug: string; listedPodcastId: string; state?: ListedPodcastState; priority?: Priority | null };

/** PATCH /projects/{slug}/podcasts/{listedPodcastId} */
export const updateListedPodcast = ({ projectSlug, listedPodcastId, ...body }: UpdateListedPodcastInput) =>
  apiRequest<unknown>(`/projects/${encodeURIComponent(projectSlug)}/podcasts/${encodeURIComponent(listedPodcastId)}`, {
    method: 'PATCH',
    body,
  });

export function useUpdateListedPodcast() {
  const client = useQueryClient();
  return useMutation({ mutationFn: updateListedPodcast, onSuccess: () => client.invalidateQueries({ queryKey: ['projects'] }) });
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
  activityHistory?: { actionType: string; activityDate: string; fromValue: string | null; toValue: string | null; userDisplayName?: string | null }[];
};

/** The title a listed podcast is shown under: the feed's latest, else the one it was added with. */
export const listedTitle = (listed: ListedPodcast): string => listed.podcast.titleLatest ?? listed.podcast.titleOriginal ?? listed.podcast.slug;

/** GET /projects/{slug}/podcasts/details */
export const getListedPodcasts = (slug: string, signal?: AbortSignal) =>
  apiRequest<{ listedPodcasts: ListedPodcast[] }>(`/projects/${encodeURIComponent(slug)}/podcasts/details`, { signal });

export const listedPodcastsQueryOptions = (slug: string) =>
  queryOptions({ queryKey: ['projects', slug, 'podcasts'], queryFn: ({ signal }) => getListedPodcasts(slug, signal), retry: false });

export function useListedPodcasts(slug: string) {
  return useQuery(listedPodcastsQueryOptions(slug));
}

/** Priority order ascending with a missing priority last (SPEC §4). */
export function comparePriority(a: Priority | null, b: Priority | null): number {
  const rank = (p: Priority | null) => (p === null ? PRIORITIES.length : PRIORITIES.indexOf(p));
  return rank(a) - rank(b);
}
