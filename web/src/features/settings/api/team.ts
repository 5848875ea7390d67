import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { apiRequest, call } from '@/lib/api-client';
import type { GetMembersUsageResponse, GetRequestHistoryResponse, SessionInfo } from '@/lib/api-types';

export type TeamRole = 'owner' | 'admin' | 'member';

export type TeamUser = {
  id: string;
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  avatarSeed?: string | null;
  displayName?: string | null;
  role: TeamRole;
  joinedAt: string;
};

/** A pending invitation to the team (never its link). */
export type TeamInvitation = { id: string; email: string; role: 'admin' | 'member'; invitedByUserId: string; createdAt: string; expiresAt: string };

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

/** PUT /teams/podcasts/{podcastId}: sets the sync and blacklist flags. */
export const updateTeamPodcast = ({ podcastId, sync, blacklist }: { podcastId: string; sync: boolean; blacklist: boolean }) =>
  call('put', '/teams/podcasts/{podcastId}', { path: { podcastId }, body: { sync, blacklist } });

/** PUT /teams/podcasts/{podcastId} with no flags: saves the podcast to the team (or keeps it as it is). */
// Sent without the generated client: its body type makes both flags required, the server does not.
export const saveTeamPodcast = (podcastId: string) =>
  apiRequest<unknown>(`/teams/podcasts/${encodeURIComponent(podcastId)}`, { method: 'PUT', body: {} });

export function useSaveTeamPodcast() {
  const client = useQueryClient();
  return useMutation({ mutationFn: saveTeamPodcast, onSuccess: () => client.invalidateQueries({ queryKey: ['team', 'podcasts'] }) });
}

/** DELETE /teams/podcasts/{podcastId} */
export const removeTeamPodcast = (podcastId: string) => call('delete', '/teams/podcasts/{podcastId}', { path: { podcastId } });

export function useUpdateTeamPodcast() {
  const client = useQueryClient();
  return useMutation({ mutationFn: updateTeamPodcast, onSuccess: () => client.invalidateQueries({ queryKey: ['team', 'podcasts'] }) });
}

export function useRemoveTeamPodcast() {
  const client = useQueryClient();
  return useMutation({ mutationFn: removeTeamPodcast, onSuccess: () => client.invalidateQueries({ queryKey: ['team', 'podcasts'] }) });
}

/** GET /teams/usage/members: each member's usage over the last `window` days. */
export const getMembersUsage = (window: number, signal?: AbortSignal) =>
  apiRequest<GetMembersUsageResponse>('/teams/usage/members', { query: { window }, signal });

export const useMembersUsage = (window = 30) =>
  useQuery({ queryKey: ['team', 'usage', 'members', window], queryFn: ({ signal }) => getMembersUsage(window, signal), retry: false });

export const REQUEST_HISTORY_PAGE = 25;

/** GET /teams/request-history: the team's transcription and analysis requests, newest first. */
export const getRequestHistory = (params: { skip: number; requestType: string }, signal?: AbortSignal) =>
  apiRequest<GetRequestHistoryResponse>('/teams/request-history', { query: { limit: REQUEST_HISTORY_PAGE, ...params }, signal });

export const useRequestHistory = (params: { skip: number; requestType: string }) =>
  useQuery({ queryKey: ['team', 'request-history', params], queryFn: ({ signal }) => getRequestHistory(params, signal), retry: false });

/** GET /auth/session: who is signed in. */
export const getSession = (signal?: AbortSignal) => apiRequest<SessionInfo>('/auth/session', { signal });

export const useSession = () => useQuery({ queryKey: ['auth', 'session'], queryFn: ({ signal }) => getSession(signal), retry: false });

/** PATCH /auth/session: the name outreach is signed with and the team sees (blank clears it). */
export const updateDisplayName = (displayName: string) =>
  apiRequest<SessionInfo>('/auth/session', { method: 'PATCH', body: { displayName } });

export function useUpdateDisplayName() {
  const client = useQueryClient();
  return useMutation({ mutationFn: updateDisplayName, onSuccess: (info) => client.setQueryData(['auth', 'session'], info) });
}


/** GET /teams/invitations: the pending invitations, newest first. */
export const getInvitations = (signal?: AbortSignal) => apiRequest<{ invitations: TeamInvitation[] }>('/teams/invitations', { signal });

export const useInvitations = () => useQuery({ queryKey: ['team', 'invitations'], queryFn: ({ signal }) => getInvitations(signal), retry: false });

/** POST /teams/invitations: mails a single-use link, valid 7 days. */
export const inviteMember = (input: { email: string; role: 'admin' | 'member' }) =>
  apiRequest<{ invitation: TeamInvitation }>('/teams/invitations', { method: 'POST', body: input });

/** DELETE /teams/invitations/{invitationId} */
export const revokeInvitation = (invitationId: string) =>
  apiRequest<{ message: string }>(`/teams/invitations/${encodeURIComponent(invitationId)}`, { method: 'DELETE' });

/** PATCH /teams/users/{userId}: admin or member (never the owner's). */
export const changeMemberRole = ({ userId, role }: { userId: string; role: 'admin' | 'member' }) =>
  apiRequest<{ message: string }>(`/teams/users/${encodeURIComponent(userId)}`, { method: 'PATCH', body: { role } });

/** DELETE /teams/users/{userId}: removes a member, or the caller leaves. */
export const removeMember = (userId: string) => apiRequest<{ message: string }>(`/teams/users/${encodeURIComponent(userId)}`, { method: 'DELETE' });

function useTeamMutation<T, R>(mutationFn: (input: T) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['team', 'users'] });
      await client.invalidateQueries({ queryKey: ['team', 'invitations'] });
    },
  });
}

export const useInviteMember = () => useTeamMutation(inviteMember);
export const useRevokeInvitation = () => useTeamMutation(revokeInvitation);
export const useChangeMemberRole = () => useTeamMutation(changeMemberRole);
export const useRemoveMember = () => useTeamMutation(removeMember);
