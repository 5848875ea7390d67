import { Link } from 'react-router';

import { Artwork } from '@/components/ui/artwork';
import { formatDate, formatDuration, plainText } from '@/lib/format';
import { links } from '@/config/paths';
import type { Episode, PodcastSummary } from '@/lib/api-types';

export function EpisodeRow({ episode, podcast, showPodcast = true }: { episode: Episode; podcast?: PodcastSummary; showPodcast?: boolean }) {
  const summary = episode.episodeShortDescription ?? plainText(episode.description);
  return (
    <li className="episode-row">
      <Artwork src={episode.imageUrl ?? podcast?.imageUrl} title={episode.title} size={56} />
      <div className="episode-body">
        <h3 className="episode-title">{episode.title}</h3>
        <p className="meta">
          {showPodcast && podcast ? (
            <>
              <Link to={links.podcast(podcast.slug)}>{podcast.title}</Link> ·{' '}
            </>
          ) : null}
          <time dateTime={String(episode.publishedAt)}>{formatDate(episode.publishedAt)}</time>
          {episode.durationSeconds ? <> · {formatDuration(episode.durationSeconds)}</> : null}
          {episode.hasTranscript ? <span className="badge">Transcript</span> : null}
        </p>
        {summary ? <p className="episode-summary">{plainText(summary)}</p> : null}
        {episode.enclosureUrl ? (
          <audio className="audio" controls preload="none" src={episode.enclosureUrl} aria-label={`Play ${episode.title}`} />
        ) : null}
      </div>
    </li>
  );
}
