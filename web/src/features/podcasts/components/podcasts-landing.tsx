import { Link } from 'react-router';

import { Artwork } from '@/components/ui/artwork';
import { PageHeader, Section } from '@/components/ui/page-header';
import { EmptyState, QueryState } from '@/components/ui/states';
import { links, paths } from '@/config/paths';

import { useLatestPodcasts } from '../api/get-latest-podcasts';

export function PodcastGrid({ podcasts }: { podcasts: { id: string; slug: string; title: string; author: string | null; imageUrl: string | null }[] }) {
  return (
    <ul className="card-grid">
      {podcasts.map((podcast) => (
        <li key={podcast.id} className="podcast-card">
          <Link to={links.podcast(podcast.slug)}>
            <Artwork src={podcast.imageUrl} title={podcast.title} size={120} />
            <span className="podcast-card-title">{podcast.title}</span>
          </Link>
          {podcast.author ? <span className="muted">{podcast.author}</span> : null}
        </li>
      ))}
    </ul>
  );
}

export function PodcastsLandingPage() {
  const query = useLatestPodcasts();
  return (
    <div>
      <PageHeader
        title="Podcasts"
        lead={
          <>
            Recently updated shows. Browse them all in the <Link to={paths.directory.pattern}>directory</Link>.
          </>
        }
      />
      <Section title="Recently updated">
        <QueryState query={query} feature="Latest podcasts" isEmpty={(data) => data.podcasts.length === 0} empty={<EmptyState title="No podcasts yet" />}>
          {(data) => <PodcastGrid podcasts={data.podcasts} />}
        </QueryState>
      </Section>
    </div>
  );
}
