import { Link, NavLink } from 'react-router';

import { Artwork } from '@/components/ui/artwork';
import { PageHeader, Section } from '@/components/ui/page-header';
import { EmptyState, NotAvailable, QueryState } from '@/components/ui/states';
import { DailyUsageChart, UsageSummary } from '@/features/dashboard/components/dashboard-page';
import { useAuth } from '@/features/auth/use-auth';
import { formatDate } from '@/lib/format';
import { links, paths, TEAM_SETTINGS_SECTIONS, USER_SETTINGS_SECTIONS } from '@/config/paths';

import { useTeamPodcasts, useTeamUsers } from '../api/team';

const label = (section: string) => section.charAt(0).toUpperCase() + section.slice(1).replace(/-/g, ' ');

function TeamPodcastList({ blacklist }: { blacklist?: boolean }) {
  const query = useTeamPodcasts(blacklist);
  return (
    <QueryState
      query={query}
      feature="Team podcasts"
      isEmpty={(data) => data.teamPodcasts.length === 0}
      empty={<EmptyState title={blacklist ? 'No blacklisted podcasts' : 'No team podcasts yet'} />}
    >
      {(data) => (
        <ul className="directory-list">
          {data.teamPodcasts.map((item) => (
            <li key={item.podcastId}>
              <Artwork src={item.podcast.imageUrl} title={item.podcast.title} size={40} />
              <Link to={links.podcast(item.podcast.slug)}>{item.podcast.title}</Link>
              <span className="muted">
                {' '}
                · added {formatDate(item.createdAt)} · {item.addedReason}
                {item.sync ? ' · synced' : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
    </QueryState>
  );
}

function TeamMembers() {
  const query = useTeamUsers();
  return (
    <QueryState query={query} feature="Team members" isEmpty={(data) => data.users.length === 0}>
      {(data) => (
        <ul className="member-list">
          {data.users.map((user) => (
            <li key={user.id}>
              <strong>{user.displayName ?? ([user.firstName, user.lastName].filter(Boolean).join(' ') || user.email)}</strong>{' '}
              <span className="muted">{user.email}</span>
            </li>
          ))}
        </ul>
      )}
    </QueryState>
  );
}

function Developers() {
  const { tier } = useAuth();
  const hasApi = tier === 'business' || tier === 'agency' || tier === 'admin';
  return (
    <>
      <p>
        API keys are created by the server operator with <code>podlens keys create --data-dir DIR --email E --plan P</code>; the
        key is printed once and stored hashed.
      </p>
      <p>
        {hasApi ? 'Your plan includes API access.' : 'API access is part of the business, agency and admin plans.'} See the{' '}
        <Link to={paths.apiDocs.pattern}>API documentation</Link>.
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
    case 'custom-prompts':
    case 'integrations':
      return <NotAvailable feature={label(section)} />;
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
          <NavLink key={name} to={links.teamSettings(name)}>
            {label(name)}
          </NavLink>
        ))}
      </nav>
      <Section title={label(subSection ? `${section} · ${subSection}` : section)}>
        <TeamSection section={section} />
      </Section>
    </div>
  );
}

export function UserSettingsPage({ section = 'profile' }: { section?: string; slug?: string; subSection?: string }) {
  const { tier, apiKey } = useAuth();
  return (
    <div>
      <PageHeader title="User settings" />
      <nav className="tabs" aria-label="User settings">
        {USER_SETTINGS_SECTIONS.map((name) => (
          <NavLink key={name} to={links.userSettings(name)}>
            {label(name)}
          </NavLink>
        ))}
      </nav>
      <Section title={label(section)}>
        {section === 'profile' ? (
          <dl className="facts">
            <div>
              <dt>Plan</dt>
              <dd>{tier}</dd>
            </div>
            <div>
              <dt>Signed in with</dt>
              <dd>API key ending …{apiKey?.slice(-4)}</dd>
            </div>
          </dl>
        ) : section === 'outreach-templates' ? (
          <NotAvailable feature="Outreach templates" />
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
