import { Link } from 'react-router';

import { PageHeader } from '@/components/ui/page-header';
import { EmptyState, QueryState } from '@/components/ui/states';
import { useTeamPodcasts } from '@/features/settings/api/team';
import { links } from '@/config/paths';

import { PodcastGrid } from './podcasts-landing';
import { PODCAST_SUB_PAGES, PodcastPage } from './podcast-page';
import { EpisodePage } from './episode-page';

export function AppPodcastsPage() {
  const query = useTeamPodcasts();
  return (
    <div>
      <PageHeader title="Podcasts" lead="Podcasts your team has saved." />
      <QueryState query={query} feature="Team podcasts" isEmpty={(data) => data.teamPodcasts.length === 0} empty={<EmptyState title="No saved podcasts yet">Save podcasts to your team from their pages.</EmptyState>}>
        {(data) => <PodcastGrid podcasts={data.teamPodcasts.map((item) => item.podcast)} />}
      </QueryState>
    </div>
  );
}

/** /app/podcasts/{slug}[/{subPage}]: the overview or one section; any other segment is an episode slug. */
export function AppPodcastPage({ slug, subPage }: { slug: string; subPage?: string }) {
  const section = PODCAST_SUB_PAGES.find((page) => page.slug === subPage);
  if (subPage && !section) {
    return <EpisodePage podcastSlug={slug} episodeSlug={subPage} />;
  }
  return (
    <div>
      <nav className="tabs" aria-label="Podcast">
        <Link to={links.appPodcast(slug)} aria-current={section ? undefined : 'page'}>
          Overview
        </Link>
        {PODCAST_SUB_PAGES.map((page) => (
          <Link key={page.slug} to={links.appPodcast(slug, page.slug)} aria-current={section?.slug === page.slug ? 'page' : undefined}>
            {page.label}
          </Link>
        ))}
      </nav>
      <PodcastPage slug={slug} only={section?.slug} />
    </div>
  );
}
