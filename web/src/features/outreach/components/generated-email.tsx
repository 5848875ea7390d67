import { useState } from 'react';
import { Link } from 'react-router';

import { CopyButton } from '@/components/ui/copy-button';
import { usePodcastContacts } from '@/features/podcasts/api/get-podcast';
import { errorText } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { links } from '@/config/paths';

import { mailtoLink, type OutreachItem } from '../api/outreach';

/**
 * Where the email goes: the show's first known address, with a link that opens the email
 * addressed in a mail program. The address is read when asked for, since reading a show's
 * contacts counts against some plans' monthly contacts.
 */
function Recipient({ podcastId, podcastSlug, subject, body }: { podcastId: string; podcastSlug?: string | null; subject: string; body: string }) {
  const [asked, setAsked] = useState(false);
  const contacts = usePodcastContacts(podcastId, asked);
  if (!asked) {
    return (
      <p className="recipient">
        <button type="button" className="button button-ghost button-small" onClick={() => setAsked(true)}>
          Show the show&apos;s contact address
        </button>
        <span className="muted">Counts as one contact lookup on plans that count them.</span>
      </p>
    );
  }
  if (contacts.isPending) return <p className="muted recipient">Reading the show&apos;s contacts…</p>;
  if (contacts.isError) return <p className="form-error recipient">{errorText(contacts.error)}</p>;
  const address = contacts.data?.podcastContacts.emails.map((email) => email.email).find(Boolean);
  if (!address) {
    return (
      <p className="muted">
        No contact address is known for this show
        {podcastSlug ? (
          <>
            {' '}
            (see its <Link to={links.podcast(podcastSlug)}>page</Link> for its website and social links)
          </>
        ) : null}
        .
      </p>
    );
  }
  return (
    <p className="recipient">
      To <a href={mailtoLink(address)}>{address}</a>{' '}
      <a className="button button-small" href={mailtoLink(address, { subject, body })}>
        Open in your email app
      </a>
    </p>
  );
}

/** One email: where it goes, subject and body, each with its copy button. */
export function GeneratedEmail({ outreach, showLink = false }: { outreach: OutreachItem; showLink?: boolean }) {
  const body = outreach.body ?? '';
  return (
    <article className="card generated-email" aria-label="Outreach email">
      <p className="meta">
        {outreach.podcast?.title ? `To ${outreach.podcast.title} · ` : ''}
        {formatDate(outreach.createdAt)}
      </p>
      {outreach.podcast?.podcastId ? (
        <Recipient podcastId={outreach.podcast.podcastId} podcastSlug={outreach.podcast.slug} subject={outreach.subject} body={body} />
      ) : null}
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
