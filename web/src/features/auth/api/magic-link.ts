import { useMutation } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api-client';

// Email sign-in and sign-up by magic link: the server emails a single-use link to
// /sign-in/email-link?key=… or /sign-up/validate?key=….

export type MagicLinkRequest = { email: string; source?: string };

export const requestSignInLink = (request: MagicLinkRequest) =>
  apiRequest<{ message: string }>('/auth/sign-in', { method: 'POST', body: request });

export const requestSignUpLink = (request: MagicLinkRequest) =>
  apiRequest<{ message: string }>('/auth/sign-up', { method: 'POST', body: request });

/** Who a redeemed link signed in; the session itself is an HttpOnly cookie. */
export type SessionInfo = { userId: string; email: string; displayName?: string | null; teamId: string; plan: string };

export const redeemSignInLink = (key: string) =>
  apiRequest<SessionInfo>('/auth/email-link', { method: 'POST', body: { key } });

export const redeemSignUpLink = (key: string) =>
  apiRequest<SessionInfo>('/auth/validate', { method: 'POST', body: { key } });

/** Accepts a team invitation (`/team-invite?key=`): joins the team and signs the browser in. */
export const acceptTeamInvitation = (key: string) =>
  apiRequest<SessionInfo>('/teams/invitations/accept', { method: 'POST', body: { key } });

/** Ends the cookie session on the server. */
export const signOutSession = () => apiRequest<{ message: string }>('/auth/sign-out', { method: 'POST' });

export function useRequestMagicLink(kind: 'sign-in' | 'sign-up') {
  return useMutation({ mutationFn: kind === 'sign-in' ? requestSignInLink : requestSignUpLink });
}
