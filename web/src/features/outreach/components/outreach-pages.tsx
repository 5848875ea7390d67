import { Link, useSearchParams } from 'react-router';

import { PageHeader, Section } from '@/components/ui/page-header';
import { EmptyState, QueryState } from '@/components/ui/states';
import { formatDate } from '@/lib/format';
import { links, paths } from '@/config/paths';

import { useOutreachDetails, useOutreachHistory, type OutreachFilters } from '../api/outreach';
import { GeneratedEmail } from './generated-email';
import { OutreachGenerator } from './outreach-generator';

/** The id under /app/outreach that opens the generator instead of a stored email. */
export const NEW_OUTREACH_ID = 'new';

function OutreachHistory({ filters = {} }: { filters?: OutreachFilters }) {
  const query = useOutreachHistory(filters);
  return (
    <QueryState
      query={query}
      feature="Outreach"
      isEmpty={(data) => data.outreachHistory.length === 0}
      empty={<EmptyState title="No outreach emails yet" />}
    >
      {(data) => (
        <ul className="project-list" aria-label="Outreach history">
          {data.outreachHistory.map((item) => (
            <li key={item.id} className="card">
              <Link to={links.outreach(item.id, { podcastId: item.podcast?.podcastId })}>{item.subject}</Link>
              <p className="meta">
                {[item.podcast?.title, item.project?.guest?.name ? `for ${item.project.guest.name}` : null, formatDate(item.createdAt)]
                  .filter(Boolean)
                  .join(' · ')}
              </p>
            </li>
          ))}
        </ul>
      )}
    </QueryState>
  );
}

/** /app/outreach: write an email and see every one the team has written. */
export function OutreachPage() {
  const [params] = useSearchParams();
  return (
    <div>
      <PageHeader title="Outreach" lead="Emails generated to pitch podcasts." />
      <Section title="Write an outreach email">
        <OutreachGenerator
          podcastId={params.get('podcast-id') ?? undefined}
          guestProfileId={params.get('guest-profile-id') ?? undefined}
          projectId={params.get('project-id') ?? undefined}
        />
      </Section>
      <Section title="History">
        <OutreachHistory />
      </Section>
    </div>
  );
}

/**
 * /app/outreach/{outreachId}[?podcast-id&guest-profile-id]: a stored email, or with
 * the id `new` the generator for the podcast and guest of the query, above their history.
 */
export function OutreachDetailPage({ outreachId }: { outreachId: string }) {
  const [params] = useSearchParams();
  const podcastId = params.get('podcast-id') ?? undefined;
  const guestProfileId = params.get('guest-profile-id') ?? undefined;
  const projectId = params.get('project-id') ?? undefined;
  if (outreachId === NEW_OUTREACH_ID) {
    return (
      <div>
        <PageHeader title="Outreach email" lead="Write an email to pitch a podcast." />
        <OutreachGenerator podcastId={podcastId} guestProfileId={guestProfileId} projectId={projectId} />
        {podcastId || guestProfileId ? (
          <Section title={podcastId ? 'Earlier emails to this podcast' : 'Earlier emails for this guest'}>
            <OutreachHistory filters={{ podcastId, guestProfileId }} />
          </Section>
        ) : null}
      </div>
    );
  }
  return <StoredOutreach outreachId={outreachId} />;
}

function StoredOutreach({ outreachId }: { outreachId: string }) {
  const query = useOutreachDetails(outreachId);
  return (
    <div>
      <PageHeader title="Outreach email" actions={<Link to={paths.outreach.pattern}>All outreach</Link>} />
      <QueryState query={query} feature="Outreach">
        {({ outreach }) => (
          <>
            <GeneratedEmail outreach={outreach} />
            {outreach.podcast?.podcastId ? (
              <p>
                <Link
                  className="button"
                  to={links.outreach(NEW_OUTREACH_ID, { podcastId: outreach.podcast.podcastId, guestProfileId: outreach.project?.guest?.id })}
                >
                  Write another to this podcast
                </Link>
              </p>
            ) : null}
          </>
        )}
      </QueryState>
    </div>
  );
}
