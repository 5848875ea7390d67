import { Link, useSearchParams } from 'react-router';

import { PageHeader } from '@/components/ui/page-header';
import { EmptyState, QueryState } from '@/components/ui/states';
import { formatDate } from '@/lib/format';
import { links } from '@/config/paths';

import { useOutreachDetails, useOutreachHistory } from '../api/outreach';

export function OutreachPage() {
  const query = useOutreachHistory();
  return (
    <div>
      <PageHeader title="Outreach" lead="Emails generated to pitch podcasts." />
      <QueryState query={query} feature="Outreach" isEmpty={(data) => data.outreachHistory.length === 0} empty={<EmptyState title="No outreach emails yet" />}>
        {(data) => (
          <ul className="project-list">
            {data.outreachHistory.map((item) => (
              <li key={item.id} className="card">
                <Link to={links.outreach(item.id)}>{item.subject}</Link>
                <p className="meta">
                  {item.podcast?.title ?? ''} · {formatDate(item.createdAt)}
                </p>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </div>
  );
}

export function OutreachDetailPage({ outreachId }: { outreachId: string }) {
  const [params] = useSearchParams();
  const query = useOutreachDetails(outreachId);
  return (
    <div>
      <PageHeader title="Outreach email" lead={params.get('podcast-id') ? `For podcast ${params.get('podcast-id')}` : undefined} />
      <QueryState query={query} feature="Outreach">
        {({ outreach }) => (
          <article className="card">
            <h2>{outreach.subject}</h2>
            <pre className="email-body">{outreach.body}</pre>
          </article>
        )}
      </QueryState>
    </div>
  );
}
