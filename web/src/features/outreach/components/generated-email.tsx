import { Link } from 'react-router';

import { CopyButton } from '@/components/ui/copy-button';
import { formatDate } from '@/lib/format';
import { links } from '@/config/paths';

import type { OutreachItem } from '../api/outreach';

/** One email: subject and body, each with its copy button. */
export function GeneratedEmail({ outreach, showLink = false }: { outreach: OutreachItem; showLink?: boolean }) {
  const body = outreach.body ?? '';
  return (
    <article className="card generated-email" aria-label="Outreach email">
      <p className="meta">
        {outreach.podcast?.title ? `To ${outreach.podcast.title} · ` : ''}
        {formatDate(outreach.createdAt)}
      </p>
      <div className="card-title-row">
        <h2>{outreach.subject}</h2>
        <CopyButton text={outreach.subject} label="Copy subject" />
      </div>
      <pre className="email-body" aria-label="Email body">
        {body}
      </pre>
      <div className="toolbar">
        <CopyButton text={body} label="Copy body" />
        <CopyButton text={`Subject: ${outreach.subject}\n\n${body}`} label="Copy email" />
        {showLink ? <Link to={links.outreach(outreach.id, { podcastId: outreach.podcast?.podcastId })}>Open in history</Link> : null}
      </div>
    </article>
  );
}
