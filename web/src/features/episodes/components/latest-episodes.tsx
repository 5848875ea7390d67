import { QueryState } from '@/components/ui/states';
import { EmptyState } from '@/components/ui/states';

import { useLatestEpisodes } from '../api/get-latest-episodes';
import { EpisodeRow } from './episode-list';

/** The newest episodes across the catalog, newest first. */
export function LatestEpisodes({ limit = 30 }: { limit?: number }) {
  const query = useLatestEpisodes();
  return (
    <QueryState
      query={query}
      feature="Latest episodes"
      loadingLabel="Loading the latest episodes…"
      isEmpty={(data) => data.latestPodcasts.every((group) => group.episodes.length === 0)}
      empty={<EmptyState title="No episodes yet">The catalog has no episodes: ingest some feeds first.</EmptyState>}
    >
      {(data) => {
        const rows = data.latestPodcasts
          .flatMap((group) => group.episodes.map((episode) => ({ episode, podcast: group.podcast })))
          .sort((a, b) => Date.parse(String(b.episode.publishedAt)) - Date.parse(String(a.episode.publishedAt)))
          .slice(0, limit);
        return (
          <ul className="episode-list" data-testid="latest-episodes">
            {rows.map(({ episode, podcast }) => (
              <EpisodeRow key={episode.episodeId} episode={episode} podcast={podcast} />
            ))}
          </ul>
        );
      }}
    </QueryState>
  );
}
