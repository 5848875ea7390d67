import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';

import { Artwork } from '@/components/ui/artwork';
import { AudioPlayer } from '@/components/ui/audio-player';
import { PageHeader, Section } from '@/components/ui/page-header';
import { ServerSanitizedHtml } from '@/components/ui/sanitized-html';
import { EmptyState, ErrorState, QueryState, Spinner } from '@/components/ui/states';
import { useAuth } from '@/features/auth/use-auth';
import { useEpisode, useTranscriptPreview, useTranscriptText } from '@/features/episodes/api/get-episode';
import { useRequestEpisodeTranscription } from '@/features/transcriptions/api/transcriptions';
import { ApiClientError } from '@/lib/api-client';
import { formatDate, formatDuration } from '@/lib/format';
import { links, paths } from '@/config/paths';

import { usePodcastEpisodes } from '../api/get-podcast-episodes';

/** /app/podcasts/{podcastSlug}/{episodeSlug}: found among the podcast's episodes. */
export function EpisodePage({ podcastSlug, episodeSlug }: { podcastSlug: string; episodeSlug: string }) {
  const episodes = usePodcastEpisodes(podcastSlug);
  const found = episodes.data?.pages.flatMap((page) => page.podcastWithEpisodes.episodes).find((episode) => episode.episodeSlug === episodeSlug || episode.episodeId === episodeSlug);
  if (episodes.isPending) return <Spinner />;
  if (episodes.isError) return <ErrorState error={episodes.error} />;
  if (!found) {
    if (episodes.hasNextPage && !episodes.isFetchingNextPage) void episodes.fetchNextPage();
    return episodes.hasNextPage ? <Spinner label="Looking for the episode…" /> : <EmptyState title="Episode not found" />;
  }
  return <EpisodeDetails episodeId={found.episodeId} podcastSlug={podcastSlug} />;
}

function EpisodeDetails({ episodeId, podcastSlug }: { episodeId: string; podcastSlug: string }) {
  const query = useEpisode(episodeId);
  // The start of the transcript is free; the whole of it counts as a transcript
  // download, so it is fetched only when asked for.
  const preview = useTranscriptPreview(episodeId, Boolean(query.data?.episode.hasTranscript));
  const [wholeAsked, setWholeAsked] = useState(false);
  const transcript = useTranscriptText(episodeId, wholeAsked);
  const { hash } = useLocation();
  const ready = query.isSuccess;
  // The transcript badge of an episode row links here with #section-transcript.
  useEffect(() => {
    if (!ready || !hash) return;
    document.getElementById(hash.slice(1))?.scrollIntoView?.();
  }, [ready, hash]);
  return (
    <QueryState query={query} feature="Episode pages">
      {({ episode }) => (
        <article>
          <PageHeader title={episode.title} lead={<Link to={links.podcast(podcastSlug)}>← Podcast</Link>} />
          <div className="episode-row">
            <Artwork src={episode.imageUrl} title={episode.title} size={120} />
            <div>
              <p className="meta">
                {formatDate(episode.publishedAt)} {episode.durationSeconds ? `· ${formatDuration(episode.durationSeconds)}` : ''}
              </p>
              <AudioPlayer src={episode.enclosureUrl} title={episode.title} />
            </div>
          </div>
          <Section title="Show notes">{episode.description ? <ServerSanitizedHtml html={episode.description} /> : <p className="muted">No show notes.</p>}</Section>
          <Section title="Transcript">
            {!episode.hasTranscript ? (
              <EmptyState title="No transcript for this episode">
                <RequestTranscript episodeId={episodeId} />
              </EmptyState>
            ) : (
              <QueryState query={preview} feature="Transcripts">
                {(data) => (
                  <>
                    <div className="transcript">{transcript.data ? transcript.data.episodeTranscriptText.text : data.episodeTranscriptText.text}</div>
                    {data.episodeTranscriptText.truncated && !transcript.data ? (
                      <p>
                        <button type="button" className="button button-secondary" disabled={transcript.isFetching} onClick={() => setWholeAsked(true)}>
                          {transcript.isFetching ? 'Loading…' : 'Read the whole transcript'}
                        </button>{' '}
                        <span className="muted">Counts as one transcript download of your plan.</span>
                      </p>
                    ) : null}
                    {transcript.isError ? (
                      <p className="form-error" role="alert">
                        {transcript.error instanceof ApiClientError ? transcript.error.displayMessage : transcript.error.message}
                      </p>
                    ) : null}
                  </>
                )}
              </QueryState>
            )}
          </Section>
        </article>
      )}
    </QueryState>
  );
}

/** Asks the server to transcribe the episode (counted against the plan); shows its answer. */
function RequestTranscript({ episodeId }: { episodeId: string }) {
  const { signedIn } = useAuth();
  const request = useRequestEpisodeTranscription();
  if (!signedIn) return null;
  if (request.isSuccess) {
    return (
      <p role="status">
        {request.data.message} · <Link to={paths.transcriptions.pattern}>Transcriptions</Link>
      </p>
    );
  }
  return (
    <>
      <button type="button" className="button button-secondary" disabled={request.isPending} onClick={() => request.mutate(episodeId)}>
        {request.isPending ? 'Requesting…' : 'Request a transcript'}
      </button>
      {request.isError ? (
        <p className="form-error" role="alert">
          {request.error instanceof ApiClientError ? request.error.displayMessage : request.error.message}
        </p>
      ) : null}
    </>
  );
}
