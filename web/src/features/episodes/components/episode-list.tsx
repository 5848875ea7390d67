import { Link } from 'react-router';

import { Artwork } from '@/components/ui/artwork';
import { AudioPlayer } from '@/components/ui/audio-player';
import { formatDate, formatDuration, plainText } from '@/lib/format';
import { links } from '@/config/paths';
import type { Episode, PodcastSummary } from '@/lib/api-types';

/** The Transcript badge of an episode: opens the transcript on the episode's page. */
export function TranscriptBadge({ episodePage, title }: { episodePage: string; title: string }) {
  return (
    <Link className="badge" to={`${episodePage}#section-transcript`} aria-label={`Transcript of ${title}`}>
      Transcript
    </Link>
  );
}

export function EpisodeRow({ episode, podcast, showPodcast = true }: { episode: Episode; podcast?: PodcastSummary; showPodcast?: boolean }) {
  const summary = episode.episodeShortDescription ?? plainText(episode.description);
  const podcastSlug = episode.podcastSlug || podcast?.slug;
  const page = podcastSlug && episode.episodeSlug ? links.appPodcast(podcastSlug, episode.episodeSlug) : null;
  return (
    <li className="episode-row">
      <Artwork src={episode.imageUrl ?? podcast?.imageUrl} title={episode.title} size={56} />
      <div className="episode-body">
        <h3 className="episode-title">{page ? <Link to={page}>{episode.title}</Link> : episode.title}</h3>
        <p className="meta">
          {showPodcast && podcast ? (
            <>
              <Link to={links.podcast(podcast.slug)}>{podcast.title}</Link> ·{' '}
            </>
          ) : null}
          <time dateTime={String(episode.publishedAt)}>{formatDate(episode.publishedAt)}</time>
          {episode.durationSeconds ? <> · {formatDuration(episode.durationSeconds)}</> : null}
          {episode.hasTranscript ? (
            page ? <TranscriptBadge episodePage={page} title={episode.title} /> : <span className="badge">Transcript</span>
          ) : null}
        </p>
        {summary ? <p className="episode-summary">{plainText(summary)}</p> : null}
        {episode.enclosureUrl ? <AudioPlayer className="audio" src={episode.enclosureUrl} title={episode.title} /> : null}
      </div>
    </li>
  );
}
