import { queryOptions, useQuery } from '@tanstack/react-query';

import { apiRequest, call } from '@/lib/api-client';

export type TeamUser = { id: string; email: string; firstName?: string | null; lastName?: string | null; avatarSeed?: string | null; displayName?: string | null };

/** GET /teams/users */
export const getTeamUsers = (signal?: AbortSignal) => apiRequest<{ users: TeamUser[] }>('/teams/users', { signal });

export const teamUsersQueryOptions = () => queryOptions({ queryKey: ['team', 'users'], queryFn: ({ signal }) => getTeamUsers(signal), retry: false });

export const useTeamUsers = () => useQuery(teamUsersQueryOptions());

/** GET /teams/podcasts?blacklist */
export const getTeamPodcasts = (blacklist: boolean | undefined, signal?: AbortSignal) =>
  call('get', '/teams/podcasts', { query: { blacklist }, signal });

export const teamPodcastsQueryOptions = (blacklist?: boolean) =>
  queryOptions({ queryKey: ['team', 'podcasts', blacklist ?? null], queryFn: ({ signal }) => getTeamPodcasts(blacklist, signal), retry: false });

export const useTeamPodcasts = (blacklist?: boolean) => useQuery(teamPodcastsQueryOptions(blacklist));
