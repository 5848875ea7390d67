import { useState } from 'react';

import { Section } from '@/components/ui/page-header';
import { EmptyState, ErrorState, Spinner } from '@/components/ui/states';
import { EpisodeRow } from '@/features/episodes/components/episode-list';

import { usePodcastEpisodes } from '../api/get-podcast-episodes';

export function PodcastEpisodes({ slug }: { slug: string }) {
  const [onlyTranscripts, setOnlyTranscripts] = useState(false);
  const query = usePodcastEpisodes(slug, onlyTranscripts || undefined);
  const pages = query.data?.pages ?? [];
  const episodes = pages.flatMap((page) => page.podcastWithEpisodes.episodes);
  const total = pages[0] ? (onlyTranscripts ? pages[0].totalTranscripts : pages[0].totalEpisodes) : null;
  return (
    <Section title="Episodes">
      <div className="toolbar">
        <label className="checkbox">
          <input type="checkbox" checked={onlyTranscripts} onChange={(event) => setOnlyTranscripts(event.target.checked)} />
          Only episodes with a transcript
        </label>
        {total !== null ? <span className="muted">{total === 1 ? "1 episode" : `${total} episodes`}</span> : null}
      </div>
      {query.isPending ? (
        <Spinner label="Loading episodes…" />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : episodes.length === 0 ? (
        <EmptyState title="No episodes" />
      ) : (
        <>
          <ul className="episode-list" data-testid="podcast-episodes">
            {episodes.map((episode) => (
              <EpisodeRow key={episode.episodeId} episode={episode} showPodcast={false} />
            ))}
          </ul>
          {query.hasNextPage ? (
            <button type="button" className="button button-secondary" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
              {query.isFetchingNextPage ? 'Loading…' : 'Load more episodes'}
            </button>
          ) : null}
        </>
      )}
    </Section>
  );
}
