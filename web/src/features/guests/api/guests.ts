import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { apiRequest, call } from '@/lib/api-client';

/** The onboarding form of SPEC §3 with the names the server also requires. */
export type GuestForm = {
  firstName: string;
  lastName: string;
  shortBio: string;
  goals: string;
  expertise: string;
  topicsToDiscuss: string;
  topicsToAvoid: string;
  companyName: string;
  linkedIn: string;
  websiteUrl: string;
};

export type CreatedGuestProfile = { guestProfileId: string; guestProfileSlug: string; projectId: string; projectSlug: string };

/** POST /guest-profiles/onboarding-form: creates the profile and its project. */
export const createGuestProfile = (form: GuestForm) =>
  apiRequest<CreatedGuestProfile>('/guest-profiles/onboarding-form', { method: 'POST', body: form });

export function useCreateGuestProfile() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createGuestProfile, onSuccess: () => client.invalidateQueries({ queryKey: ['projects'] }) });
}

/** GET /guest-profiles/{guestProfileIdOrProjectId} (a project slug is accepted too). */
export const getGuestProfile = (key: string, signal?: AbortSignal) =>
  call('get', '/guest-profiles/{guestProfileIdOrProjectId}', { path: { guestProfileIdOrProjectId: key }, signal });

/** Polls, a minute at most, while the background job has not yet written the profile's bio. */
const BUILD_POLLS = 30;

export const guestProfileQueryOptions = (key: string) =>
  queryOptions({
    queryKey: ['guest-profiles', key],
    queryFn: ({ signal }) => getGuestProfile(key, signal),
    retry: false,
    // The page follows the pipeline until the profile is written.
    refetchInterval: (query) => {
      const profile = query.state.data;
      const building = profile && !profile.guestBio && profile.status !== 'ERROR' && profile.status !== 'ARCHIVED';
      return building && query.state.dataUpdateCount < BUILD_POLLS ? 2000 : false;
    },
  });

export const useGuestProfile = (key: string) => useQuery(guestProfileQueryOptions(key));
