import { Link } from 'react-router';

import { Section, usePageTitle } from '@/components/ui/page-header';
import { LatestEpisodes } from '@/features/episodes/components/latest-episodes';
import { HomeSearch } from '@/features/search/components/home-search';
import { paths } from '@/config/paths';

export function HomeRoute() {
  usePageTitle('Podcast search');
  return (
    <div>
      <section className="hero">
        <h1>Find the podcasts — and the moments — that matter</h1>
        <p className="lead">Search podcast titles, descriptions and episode transcripts. See contacts, ratings, charts and authority at a glance.</p>
        <HomeSearch />
        <p className="muted">
          Or browse the <Link to={paths.directory.pattern}>directory</Link> and the <Link to={paths.statsPodcast2.pattern}>Podcasting 2.0 stats</Link>.
        </p>
      </section>
      <Section title="Latest episodes">
        <LatestEpisodes />
      </Section>
    </div>
  );
}
