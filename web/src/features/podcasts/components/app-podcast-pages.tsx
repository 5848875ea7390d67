import { Link } from 'react-router';

import { PageHeader } from '@/components/ui/page-header';
import { EmptyState, QueryState } from '@/components/ui/states';
import { useTeamPodcasts } from '@/features/settings/api/team';
import { links } from '@/config/paths';

import { PodcastGrid } from './podcasts-landing';
import { PodcastPage } from './podcast-page';
import { EpisodePage } from './episode-page';

/** Sub-pages of a podcast in the app; any other segment is an episode slug. */
export const PODCAST_SUB_PAGES = ['episodes', 'contacts', 'reviews', 'charts', 'socials', 'related'] as const;

export function AppPodcastsPage() {
  const query = useTeamPodcasts();
  return (
    <div>
      <PageHeader title="Podcasts" lead="Podcasts your team has saved." />
      <QueryState query={query} feature="Team podcasts" isEmpty={(data) => data.teamPodcasts.length === 0} empty={<EmptyState title="No saved podcasts yet" />}>
        {(data) => <PodcastGrid podcasts={data.teamPodcasts.map((item) => item.podcast)} />}
      </QueryState>
    </div>
  );
}

export function AppPodcastPage({ slug, subPage }: { slug: string; subPage?: string }) {
  if (subPage && !(PODCAST_SUB_PAGES as readonly string[]).includes(subPage)) {
    return <EpisodePage podcastSlug={slug} episodeSlug={subPage} />;
  }
  return (
    <div>
      <nav className="tabs" aria-label="Podcast">
        <Link to={links.appPodcast(slug)}>Overview</Link>
        {PODCAST_SUB_PAGES.map((page) => (
          <Link key={page} to={`${links.appPodcast(slug)}#section-${page}`}>
            {page}
          </Link>
        ))}
      </nav>
      <PodcastPage slug={slug} />
    </div>
  );
}
