import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { usePageTitle } from '@/components/ui/page-header';
import { ServerSanitizedHtml } from '@/components/ui/sanitized-html';
import { Section } from '@/components/ui/page-header';
import { NotFoundState, QueryState, isNotFound } from '@/components/ui/states';
import { useAuth } from '@/features/auth/use-auth';
import { AddToProject } from '@/features/search/components/add-to-project';
import { isValidPodcastSlug, links, paths } from '@/config/paths';

import { usePodcast } from '../api/get-podcast';
import { ChartHistorySection } from './chart-history';
import { PodcastEpisodes } from './podcast-episodes';
import { PodcastHeader } from './podcast-header';
import { SaveToTeam } from './save-to-team';
import { AuthorityScoreSection } from './authority-score';
import {
  ContactsSection,
  RelatedPodcastsSection,
  ReviewsSection,
  SocialsSection,
} from './podcast-sections';

/** The sub-pages of a podcast in the app (/app/podcasts/{slug}/{subPage}), each one section. */
export const PODCAST_SUB_PAGES = [
  { slug: 'episodes', label: 'Episodes' },
  { slug: 'contacts', label: 'Contacts' },
  { slug: 'reviews', label: 'Reviews' },
  { slug: 'charts', label: 'Charts' },
  { slug: 'socials', label: 'Socials' },
  { slug: 'related', label: 'Related' },
] as const;
export type PodcastSubPage = (typeof PODCAST_SUB_PAGES)[number]['slug'];

/** /podcasts/{slug}: everything the catalog knows about one podcast; `only` shows one section. */
export function PodcastPage({ slug, only }: { slug: string; only?: PodcastSubPage }) {
  if (!isValidPodcastSlug(slug)) {
    return (
      <PodcastNotFound>
        <p>“{slug}” is not a podcast address.</p>
      </PodcastNotFound>
    );
  }
  return <PodcastDetails slug={slug} only={only} />;
}

/** A podcast the catalog does not have: said plainly, with search and the directory to go on. */
function PodcastNotFound({ children }: { children: ReactNode }) {
  usePageTitle('Podcast not found');
  return <NotFoundState title="Podcast not found">{children}</NotFoundState>;
}

function PodcastDetails({ slug, only }: { slug: string; only?: PodcastSubPage }) {
  const query = usePodcast(slug);
  const { tier, signedIn } = useAuth();
  usePageTitle(query.data?.podcast.title ?? (isNotFound(query.error) ? 'Podcast not found' : 'Podcast'));
  return (
    <QueryState
      query={query}
      feature="Podcast pages"
      loadingLabel="Loading podcast…"
      notFound={
        <PodcastNotFound>
          <p>
            This catalog has no podcast at “{slug}”. It may have left the catalog, or the link may be mistyped: search
            for the show by name, or find it in the directory.
          </p>
        </PodcastNotFound>
      }
    >
      {({ podcast }) => {
        const actions = signedIn ? (
          <div className="toolbar podcast-actions">
            <AddToProject podcastId={podcast.id} offerNewProject />
            <Link className="button button-secondary" to={links.outreach('new', { podcastId: podcast.id })}>
              Outreach email
            </Link>
            <SaveToTeam podcastId={podcast.id} />
          </div>
        ) : null;
        if (only) {
          return (
            <article className="podcast-page">
              <PodcastHeader podcast={podcast} />
              {actions}
              {only === 'episodes' ? <PodcastEpisodes slug={slug} /> : null}
              {only === 'contacts' ? <ContactsSection slug={slug} podcast={podcast} tier={tier} /> : null}
              {only === 'reviews' ? <ReviewsSection slug={slug} /> : null}
              {only === 'charts' ? <ChartHistorySection slug={slug} /> : null}
              {only === 'socials' ? <SocialsSection slug={slug} podcast={podcast} /> : null}
              {only === 'related' ? <RelatedPodcastsSection slug={slug} /> : null}
            </article>
          );
        }
        return (
          <article className="podcast-page">
            <PodcastHeader podcast={podcast} />
            {actions}
            <div className="podcast-columns">
              <div className="podcast-main">
                <Section title="About this podcast">
                  {podcast.description ? (
                    <ServerSanitizedHtml html={podcast.description} />
                  ) : (
                    <p className="muted">No description.</p>
                  )}
                </Section>
                {podcast.hostNames && podcast.hostNames.length > 0 ? (
                  <Section title="Hosts">
                    <ul className="tags">
                      {podcast.hostNames.map((name) => (
                        <li key={name} className="tag">
                          {name}
                        </li>
                      ))}
                    </ul>
                  </Section>
                ) : null}
                <PodcastEpisodes slug={slug} />
              </div>
              <aside className="podcast-side">
                <AuthorityScoreSection podcastId={podcast.id} score={podcast.authorityScore} />
                <ContactsSection slug={slug} podcast={podcast} tier={tier} />
                <SocialsSection slug={slug} podcast={podcast} />
              </aside>
            </div>
            <ReviewsSection slug={slug} />
            <ChartHistorySection slug={slug} />
            <RelatedPodcastsSection slug={slug} />
            <p>
              <Link to={paths.search.pattern}>Search more podcasts</Link>
            </p>
          </article>
        );
      }}
    </QueryState>
  );
}
