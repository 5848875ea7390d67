import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { setApiKey } from '@/lib/auth-storage';
import { renderApp, stubApi } from '@/test/render';

const users = [
  { id: 'u1', email: 'owner@example.com', displayName: 'Olga', role: 'owner', joinedAt: '2026-10-01T00:00:00Z' },
  { id: 'u2', email: 'ben@example.com', displayName: 'Ben', role: 'member', joinedAt: '2026-11-01T00:00:00Z' },
];
const invitations = [
  { id: 'i1', email: 'cleo@example.com', role: 'admin', invitedByUserId: 'u1', createdAt: '2026-11-20T00:00:00Z', expiresAt: '2026-11-27T00:00:00Z' },
];
const session = (userId: string, plan = 'business') => ({ userId, email: 'x@example.com', displayName: null, teamId: 't1', plan });

beforeEach(() => setApiKey('pl_key'));
afterEach(() => vi.unstubAllGlobals());

const stubTeam = (userId: string, plan = 'business') =>
  stubApi((url, init) => {
    const method = init?.method ?? 'GET';
    if (url.pathname === '/api/v1/auth/session') return { body: session(userId, plan) };
    if (url.pathname === '/api/v1/teams/users' && method === 'GET') return { body: { users } };
    if (url.pathname === '/api/v1/teams/invitations' && method === 'GET') return { body: { invitations } };
    if (url.pathname === '/api/v1/teams/invitations' && method === 'POST')
      return { body: { invitation: { ...invitations[0], id: 'i2', email: 'dan@example.com', role: 'member' } } };
    if (url.pathname.startsWith('/api/v1/teams/')) return { body: { message: 'done' } };
    return undefined;
  });

describe('team members', () => {
  it('lists members with their roles and pending invitations, and lets the owner invite, change a role, remove and revoke', async () => {
    const calls = stubTeam('u1');
    renderApp('/app/team-settings/team');
    const list = await screen.findByRole('list', { name: 'Team members' });
    const rows = within(list).getAllByTestId('team-member');
    expect(rows[0]).toHaveTextContent('Olga');
    expect(rows[0]).toHaveTextContent('owner@example.com');
    expect(within(rows[0]).getByLabelText('Role of Olga: Owner')).toBeInTheDocument();
    // The owner's own row has no remove button: the owner cannot be removed.
    expect(within(rows[0]).queryByRole('button', { name: /Remove|Leave/ })).toBeNull();
    expect(await screen.findByText('cleo@example.com')).toBeInTheDocument();

    fireEvent.change(await screen.findByRole('combobox', { name: 'Role of Ben' }), { target: { value: 'admin' } });
    await waitFor(() => expect(calls.some((call) => call.init?.method === 'PATCH')).toBe(true));
    const patch = calls.find((call) => call.init?.method === 'PATCH')!;
    expect(patch.url.pathname).toBe('/api/v1/teams/users/u2');
    expect(JSON.parse(String(patch.init?.body))).toEqual({ role: 'admin' });

    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: ' dan@example.com ' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Role' }), { target: { value: 'member' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    await waitFor(() => expect(calls.some((call) => call.init?.method === 'POST')).toBe(true));
    const post = calls.find((call) => call.init?.method === 'POST')!;
    expect(JSON.parse(String(post.init?.body))).toEqual({ email: 'dan@example.com', role: 'member' });
    expect(await screen.findByRole('status')).toHaveTextContent('Invitation sent to dan@example.com');

    fireEvent.click(screen.getByRole('button', { name: 'Remove Ben' }));
    expect(calls.some((call) => call.init?.method === 'DELETE')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Remove from the team' }));
    await waitFor(() => expect(calls.some((call) => call.init?.method === 'DELETE' && call.url.pathname === '/api/v1/teams/users/u2')).toBe(true));

    fireEvent.click(screen.getByRole('button', { name: 'Revoke the invitation of cleo@example.com' }));
    fireEvent.click(screen.getByRole('button', { name: 'Revoke invitation' }));
    await waitFor(() => expect(calls.some((call) => call.init?.method === 'DELETE' && call.url.pathname === '/api/v1/teams/invitations/i1')).toBe(true));
  });

  it('shows a plain member the team without the invite form, role selects or revoke buttons, and lets them leave', async () => {
    const calls = stubTeam('u2');
    renderApp('/app/team-settings/team');
    expect(await screen.findByText('The team’s owner and admins invite and manage members.')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Invite a member' })).toBeNull();
    expect(screen.queryByRole('combobox', { name: /Role of/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Revoke/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove Olga' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Leave the team' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Leave the team' }));
    await waitFor(() => expect(calls.some((call) => call.init?.method === 'DELETE' && call.url.pathname === '/api/v1/teams/users/u2')).toBe(true));
  });

  it('tells an owner on a plan without members which plans have them', async () => {
    stubTeam('u1', 'free');
    renderApp('/app/team-settings/team');
    expect(await screen.findByText(/Your free plan does not include team members; business, agency and admin plans do/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send invitation' })).toBeNull();
  });

  it('accepts an invitation link and opens the app', async () => {
    setApiKey(null);
    const calls = stubApi((url) => (url.pathname === '/api/v1/teams/invitations/accept' ? { body: session('u3') } : undefined));
    const { router } = renderApp('/team-invite?key=abc123');
    await waitFor(() => expect(calls.some((call) => call.url.pathname === '/api/v1/teams/invitations/accept')).toBe(true));
    const accept = calls.find((call) => call.url.pathname === '/api/v1/teams/invitations/accept')!;
    expect(JSON.parse(String(accept.init?.body))).toEqual({ key: 'abc123' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/app'));
  });

  it('shows the server’s refusal of a used or expired invitation link', async () => {
    setApiKey(null);
    stubApi((url) =>
      url.pathname === '/api/v1/teams/invitations/accept'
        ? { status: 400, body: { status: 'BAD_REQUEST', data: { message: 'The invitation link is invalid, used or expired' } } }
        : undefined,
    );
    renderApp('/team-invite?key=used');
    expect(await screen.findByText(/The invitation link is invalid, used or expired/)).toBeInTheDocument();
  });
});
