import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';

import { PageHeader, Section } from '@/components/ui/page-header';
import { EmptyState, QueryState } from '@/components/ui/states';
import { errorText } from '@/lib/api-client';
import { DailyUsageChart, UsageSummary } from '@/features/dashboard/components/dashboard-page';
import { useAuth } from '@/features/auth/use-auth';
import { links, paths, TEAM_SETTINGS_SECTIONS, USER_SETTINGS_SECTIONS } from '@/config/paths';

import { useSession, useUpdateDisplayName } from '../api/team';
import { ApiKeys } from './api-keys';
import { CustomPrompts } from './custom-prompts';
import { Integrations } from './integrations';
import { PreferencesSection } from './preferences';
import { MembersUsage, RequestHistory, TeamPodcastList } from './team-sections';
import { TeamMembers } from './team-members';
import { OutreachTemplates } from './outreach-templates';

const label = (section: string) => section.charAt(0).toUpperCase() + section.slice(1).replace(/-/g, ' ');

function Developers() {
  const { tier } = useAuth();
  const hasApi = tier === 'business' || tier === 'agency' || tier === 'admin';
  return (
    <>
      <p>
        API keys let your team’s own tools call the Podlens API.{' '}
        {hasApi ? 'Your plan includes API access.' : 'API access is part of the business, agency and admin plans.'} See the{' '}
        <Link to={paths.apiDocs.pattern}>API documentation</Link>.
      </p>
      <ApiKeys />
      <p className="muted">
        The server operator can also create keys with <code>podlens keys create --data-dir DIR --email E --plan P</code>; the
        key is printed once and stored hashed.
      </p>
    </>
  );
}

function TeamSection({ section }: { section: string }) {
  switch (section) {
    case 'team':
      return <TeamMembers />;
    case 'search-usage':
      return (
        <>
          <UsageSummary />
          <DailyUsageChart />
          <h3>By member</h3>
          <MembersUsage />
        </>
      );
    case 'team-podcasts':
      return <TeamPodcastList />;
    case 'podcast-blacklist':
      return <TeamPodcastList blacklist />;
    case 'developers':
      return <Developers />;
    case 'billing':
      return (
        <p>
          Plans and prices are on the <Link to={paths.pricing.pattern}>pricing page</Link>. Payment is arranged with the operator of
          this server.
        </p>
      );
    case 'activity-history':
      return <RequestHistory />;
    case 'custom-prompts':
      return <CustomPrompts />;
    case 'integrations':
      return <Integrations />;
    default:
      return <EmptyState title="No such section" />;
  }
}

export function TeamSettingsPage({ section = 'team', subSection }: { section?: string; subSection?: string }) {
  return (
    <div>
      <PageHeader title="Team settings" />
      <nav className="tabs" aria-label="Team settings">
        {TEAM_SETTINGS_SECTIONS.map((name) => (
          <Link key={name} to={links.teamSettings(name)} aria-current={name === section ? 'page' : undefined}>
            {label(name)}
          </Link>
        ))}
      </nav>
      <Section title={label(subSection ? `${section} · ${subSection}` : section)}>
        <TeamSection section={section} />
      </Section>
    </div>
  );
}

/** The name the user goes by: it signs their outreach emails and their team sees it. */
function NameForm({ current }: { current: string | null }) {
  const [name, setName] = useState(current ?? '');
  const update = useUpdateDisplayName();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate(name);
  };
  return (
    <form className="stack" onSubmit={submit} aria-label="Your name">
      <label className="field">
        <span>Your name</span>
        <input
          value={name}
          autoComplete="name"
          onChange={(event) => {
            setName(event.target.value);
            if (!update.isIdle) update.reset();
          }}
          aria-invalid={update.isError || undefined}
          aria-describedby={update.isError ? 'profile-name-error profile-name-hint' : 'profile-name-hint'}
        />
      </label>
      <p id="profile-name-hint" className="meta">
        Signs the outreach emails you write on a guest's behalf, and is what your team sees (at most 80 characters). Left empty,
        your email address is shown.
      </p>
      <div className="toolbar">
        <button type="submit" className="button" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save name'}
        </button>
        {update.isSuccess ? <span role="status">Saved</span> : null}
        {update.isError ? (
          <span id="profile-name-error" className="form-error" role="alert">
            {errorText(update.error).replace(/^displayName/, 'The name')}
          </span>
        ) : null}
      </div>
    </form>
  );
}

function Profile() {
  const { tier, apiKey } = useAuth();
  const session = useSession();
  return (
    <QueryState query={session} feature="Profile">
      {(info) => (
        <>
        <NameForm current={info.displayName ?? null} />
        <dl className="facts">
          <div>
            <dt>Email</dt>
            <dd>{info.email}</dd>
          </div>
          <div>
            <dt>Plan</dt>
            <dd>{info.plan.toLowerCase() || tier}</dd>
          </div>
          <div>
            <dt>Signed in with</dt>
            <dd>{apiKey ? `API key ending …${apiKey.slice(-4)}` : 'Email link'}</dd>
          </div>
        </dl>
        </>
      )}
    </QueryState>
  );
}

export function UserSettingsPage({ section = 'profile', slug }: { section?: string; slug?: string; subSection?: string }) {
  return (
    <div>
      <PageHeader title="User settings" />
      <nav className="tabs" aria-label="User settings">
        {USER_SETTINGS_SECTIONS.map((name) => (
          <Link key={name} to={links.userSettings(name)} aria-current={name === section ? 'page' : undefined}>
            {label(name)}
          </Link>
        ))}
      </nav>
      <Section title={label(section)}>
        {section === 'profile' ? (
          <>
            <Profile />
            <h3>Preferences</h3>
            <PreferencesSection />
          </>
        ) : section === 'outreach-templates' ? (
          <OutreachTemplates slug={slug} />
        ) : (
          <EmptyState title="No such section" />
        )}
      </Section>
      <p>
        <Link to={paths.signOut.pattern}>Sign out</Link>
      </p>
    </div>
  );
}
