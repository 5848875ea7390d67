import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';

import { EmptyState, QueryState } from '@/components/ui/states';
import { useAuth } from '@/features/auth/use-auth';
import { errorText } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { links, paths } from '@/config/paths';

import {
  useChangeMemberRole,
  useInvitations,
  useInviteMember,
  useRemoveMember,
  useRevokeInvitation,
  useSession,
  useTeamUsers,
  type TeamInvitation,
  type TeamUser,
} from '../api/team';
import { ConfirmAction } from './confirm-action';

const ROLE_LABELS: Record<string, string> = { owner: 'Owner', admin: 'Admin', member: 'Member' };

const nameOf = (user: TeamUser) => user.displayName ?? ([user.firstName, user.lastName].filter(Boolean).join(' ') || user.email);

/** Team members are part of the business, agency and admin plans (SPEC §6). */
const plansWithMembers = new Set(['business', 'agency', 'admin']);

function MemberRow({ user, manages, isSelf }: { user: TeamUser; manages: boolean; isSelf: boolean }) {
  const changeRole = useChangeMemberRole();
  const remove = useRemoveMember();
  const navigate = useNavigate();
  const name = nameOf(user);
  const isOwner = user.role === 'owner';
  return (
    <li data-testid="team-member">
      <span className="grow">
        <strong>{name}</strong> <span className="muted">{user.email}</span>
        {isSelf ? <span className="muted"> (you)</span> : null}
        <span className="muted"> · joined {formatDate(user.joinedAt)}</span>
        {changeRole.error ? (
          <span className="form-error" role="alert">
            {' '}
            {errorText(changeRole.error)}
          </span>
        ) : null}
      </span>
      {manages && !isOwner && !isSelf ? (
        <label className="field inline">
          <select
            aria-label={`Role of ${name}`}
            value={user.role}
            disabled={changeRole.isPending}
            onChange={(event) => changeRole.mutate({ userId: user.id, role: event.target.value as 'admin' | 'member' })}
          >
            <option value="admin">Admin</option>
            <option value="member">Member</option>
          </select>
        </label>
      ) : (
        <span className="badge" aria-label={`Role of ${name}: ${ROLE_LABELS[user.role] ?? user.role}`}>
          {ROLE_LABELS[user.role] ?? user.role}
        </span>
      )}
      {!isOwner && (manages || isSelf) ? (
        <ConfirmAction
          label={isSelf ? 'Leave' : 'Remove'}
          subject={isSelf ? 'the team' : name}
          question={
            isSelf
              ? 'Leave the team? Your API keys for it stop working and you are signed out; your next sign-in gives you a team of your own.'
              : `Remove ${name} from the team? Their API keys for the team stop working and their sessions end.`
          }
          confirmLabel={isSelf ? 'Leave the team' : 'Remove from the team'}
          pending={remove.isPending}
          error={remove.error}
          onConfirm={() =>
            remove.mutate(user.id, {
              onSuccess: () => {
                if (isSelf) navigate(paths.signOut.pattern, { replace: true });
              },
            })
          }
        />
      ) : null}
    </li>
  );
}

function InvitationRow({ invitation, manages }: { invitation: TeamInvitation; manages: boolean }) {
  const revoke = useRevokeInvitation();
  return (
    <li data-testid="team-invitation">
      <span className="grow">
        <strong>{invitation.email}</strong> <span className="muted">as {ROLE_LABELS[invitation.role] ?? invitation.role}</span>
        <span className="muted">
          {' '}
          · sent {formatDate(invitation.createdAt)} · expires {formatDate(invitation.expiresAt)}
        </span>
      </span>
      {manages ? (
        <ConfirmAction
          label="Revoke"
          subject={`the invitation of ${invitation.email}`}
          question={`Revoke the invitation of ${invitation.email}? Its link stops working.`}
          confirmLabel="Revoke invitation"
          pending={revoke.isPending}
          error={revoke.error}
          onConfirm={() => revoke.mutate(invitation.id)}
        />
      ) : null}
    </li>
  );
}

function InviteForm() {
  const invite = useInviteMember();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<'admin' | 'member'>('member');
  const [sent, setSent] = useState<string | null>(null);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSent(null);
    invite.mutate(
      { email: email.trim(), role },
      {
        onSuccess: (data) => {
          setSent(data.invitation.email);
          setEmail('');
          setRole('member');
        },
      },
    );
  };
  return (
    <form className="stack" aria-label="Invite a member" onSubmit={onSubmit}>
      <label className="field">
        <span>Email address</span>
        <input type="email" required value={email} onChange={(event) => setEmail(event.target.value)} autoComplete="off" />
      </label>
      <label className="field">
        <span>Role</span>
        <select value={role} onChange={(event) => setRole(event.target.value as 'admin' | 'member')}>
          <option value="member">Member</option>
          <option value="admin">Admin (may invite and manage members)</option>
        </select>
      </label>
      <div>
        <button type="submit" className="button button-primary" disabled={invite.isPending || email.trim() === ''}>
          {invite.isPending ? 'Sending…' : 'Send invitation'}
        </button>
      </div>
      {invite.error ? (
        <p className="form-error" role="alert">
          {errorText(invite.error)}
        </p>
      ) : null}
      {sent ? (
        <p className="notice" role="status">
          Invitation sent to {sent}. The link works once and expires in 7 days.
        </p>
      ) : null}
    </form>
  );
}

/** The team's members and pending invitations; the owner and admins invite, change roles and remove. */
export function TeamMembers() {
  const users = useTeamUsers();
  const invitations = useInvitations();
  const session = useSession();
  const { tier } = useAuth();
  const userId = session.data?.userId;
  const me = users.data?.users.find((user) => user.id === userId);
  const manages = me?.role === 'owner' || me?.role === 'admin';
  const plan = session.data?.plan?.toLowerCase() || tier;
  return (
    <>
      <QueryState query={users} feature="Team members" isEmpty={(data) => data.users.length === 0}>
        {(data) => (
          <ul className="directory-list member-list" aria-label="Team members">
            {data.users.map((user) => (
              <MemberRow key={user.id} user={user} manages={manages} isSelf={user.id === userId} />
            ))}
          </ul>
        )}
      </QueryState>
      <h3>Pending invitations</h3>
      <QueryState
        query={invitations}
        feature="Invitations"
        isEmpty={(data) => data.invitations.length === 0}
        empty={<EmptyState title="No pending invitations" />}
      >
        {(data) => (
          <ul className="directory-list" aria-label="Pending invitations">
            {data.invitations.map((invitation) => (
              <InvitationRow key={invitation.id} invitation={invitation} manages={manages} />
            ))}
          </ul>
        )}
      </QueryState>
      {manages ? (
        <>
          <h3>Invite a member</h3>
          {plan && !plansWithMembers.has(plan) ? (
            <p className="muted">
              Your {plan} plan does not include team members; business, agency and admin plans do. See{' '}
              <Link to={links.teamSettings('billing')}>billing</Link>.
            </p>
          ) : (
            <InviteForm />
          )}
        </>
      ) : me ? (
        <p className="muted">The team’s owner and admins invite and manage members.</p>
      ) : null}
    </>
  );
}
