import { useDeferredValue } from 'react';
import { Link } from 'react-router';

import { Artwork } from '@/components/ui/artwork';
import { HighlightedText } from '@/components/ui/highlighted-text';
import { LockIcon } from '@/components/ui/lock-icon';
import { formatDate, formatNumber, plainText } from '@/lib/format';
import { UpgradeLink } from '@/components/ui/upgrade-link';
import { links } from '@/config/paths';
import { PODCAST_FACT_TIERS, planSeesFact, type PlanTier, type PodcastFact } from '@/config/plans';
import type { EpisodeHit, PodcastHit } from '@/lib/api-types';

import { TranscriptBadge } from '@/features/episodes/components/episode-list';

import { AddToProject } from './add-to-project';
import type { HitSelection } from './result-selection';

export type ResultsView = 'list' | 'table';

type Props = {
  mode: 'podcasts' | 'episodes';
  hits: (PodcastHit | EpisodeHit)[];
  view: ResultsView;
  canAddToProject: boolean;
  selectedProjectSlug?: string;
  /** Podcast results get a checkbox each when given. */
  selection?: HitSelection;
  /** The viewer's plan: facts it does not see are shown locked. */
  tier?: PlanTier;
};

/** Whether the hit names someone to write to (a field the plan may not send). */
const hasContact = (hit: PodcastHit) => Boolean(hit.primaryContact) || (hit.podcastEmails?.length ?? 0) > 0;

const firstHighlight = (list: string[] | null | undefined) => (list && list.length > 0 ? list[0] : null);

const FACT_NAMES: Record<PodcastFact, string> = { contact: 'Contact', guests: 'Guests' };

/** A fact the plan does not see: named, locked, and where to get it. */
function LockedFact({ fact, tier }: { fact: PodcastFact; tier: PlanTier }) {
  return (
    <li className="tag tag-locked">
      <LockIcon />{' '}
      {FACT_NAMES[fact]}:{' '}
      <UpgradeLink tier={tier} needed={PODCAST_FACT_TIERS[fact]} />
    </li>
  );
}

/** What an agent decides on, at a glance: the score, the genres, the rating, whether
 * the show has guests and whether there is someone to write to; what the plan does
 * not see is shown locked rather than left out. */
function PodcastFacts({ hit, tier }: { hit: PodcastHit; tier?: PlanTier }) {
  const genres = hit.rssCategories?.slice(0, 3) ?? [];
  const sees = (fact: PodcastFact) => tier === undefined || planSeesFact(tier, fact);
  return (
    <ul className="tags result-facts" aria-label="Podcast facts">
      {hit.podcastAuthorityScoreTotal != null ? (
        <li className="tag" title="Authority score, 0–100">
          Authority {Math.round(hit.podcastAuthorityScoreTotal)}
        </li>
      ) : null}
      {genres.map((genre) => (
        <li key={genre} className="tag">
          {genre}
        </li>
      ))}
      {hit.applePodcastsRating ? (
        <li className="tag">
          ★ {hit.applePodcastsRating.toFixed(1)}
          {hit.applePodcastsRatingsCount ? ` (${formatNumber(hit.applePodcastsRatingsCount)})` : ''}
        </li>
      ) : null}
      {sees('guests') ? (hit.podcastHasGuests ? <li className="tag">Has guests</li> : null) : <LockedFact fact="guests" tier={tier!} />}
      {sees('contact') ? (hasContact(hit) ? <li className="tag">Contact available</li> : null) : <LockedFact fact="contact" tier={tier!} />}
    </ul>
  );
}

function SelectHit({ hit, selection }: { hit: PodcastHit; selection: HitSelection }) {
  return (
    <input
      type="checkbox"
      aria-label={`Select ${hit.podcastRssTitle}`}
      checked={selection.selected.has(hit.podcastId)}
      onChange={(event) => selection.toggle(hit.podcastId, event.target.checked)}
    />
  );
}

function PodcastResult({
  hit,
  canAdd,
  project,
  selection,
  tier,
}: {
  hit: PodcastHit;
  canAdd: boolean;
  project?: string;
  selection?: HitSelection;
  tier?: PlanTier;
}) {
  const title = firstHighlight(hit.podcastTitleHighlights) ?? hit.podcastRssTitle;
  const description = firstHighlight(hit.podcastDescriptionHighlights);
  return (
    <li className="result">
      {selection ? (
        <div className="result-select">
          <SelectHit hit={hit} selection={selection} />
        </div>
      ) : null}
      <Artwork src={hit.podcastImageUrl} title={hit.podcastRssTitle} size={72} />
      <div className="result-body">
        <h3>
          <Link to={links.podcast(hit.podcastSlug)}>
            <HighlightedText snippet={title} />
          </Link>
        </h3>
        <p className="meta">
          {hit.podcastRssAuthor ? <>{hit.podcastRssAuthor} · </> : null}
          {hit.totalEpisodes ? <>{hit.totalEpisodes === 1 ? '1 episode' : `${formatNumber(hit.totalEpisodes)} episodes`} · </> : null}
          last episode {formatDate(hit.lastEpisodeDate)}
        </p>
        <PodcastFacts hit={hit} tier={tier} />
        <p className="snippet">
          {description ? <HighlightedText snippet={description} /> : plainText(hit.podcastRssDescriptionNoHtml ?? hit.podcastRssDescription)}
        </p>
        {canAdd ? <AddToProject podcastId={hit.podcastId} defaultProjectSlug={project} /> : null}
      </div>
    </li>
  );
}

function EpisodeResult({ hit, canAdd, project }: { hit: EpisodeHit; canAdd: boolean; project?: string }) {
  const title = firstHighlight(hit.episodeTitleHighlights) ?? hit.episodeRssTitle;
  const snippet = hit.matchSnippet ?? firstHighlight(hit.transcriptHighlights) ?? firstHighlight(hit.episodeDescriptionHighlights);
  const fromTranscript = Boolean(hit.matchSnippet ?? firstHighlight(hit.transcriptHighlights));
  const episodePage = links.appPodcast(hit.podcastSlug, hit.episodeSlug);
  return (
    <li className="result">
      <Artwork src={hit.episodeImageUrl ?? hit.podcastImageUrl} title={hit.episodeRssTitle} size={72} />
      <div className="result-body">
        <h3>
          <Link to={episodePage}>
            <HighlightedText snippet={title} />
          </Link>
        </h3>
        <p className="meta">
          <Link to={links.podcast(hit.podcastSlug)}>{hit.podcastRssTitle}</Link> · {formatDate(hit.episodeRssPublishedAt)}
          {hit.episodeHasTranscript ? <TranscriptBadge episodePage={episodePage} title={hit.episodeRssTitle} /> : null}
        </p>
        {snippet ? (
          <blockquote className={`snippet${fromTranscript ? ' snippet-transcript' : ''}`} data-testid={fromTranscript ? 'transcript-snippet' : 'description-snippet'}>
            {fromTranscript ? <span className="snippet-label">Transcript: </span> : null}
            <HighlightedText snippet={snippet} />
          </blockquote>
        ) : (
          <p className="snippet">{plainText(hit.episodeRssDescription)}</p>
        )}
        {canAdd ? <AddToProject podcastId={hit.podcastId} defaultProjectSlug={project} /> : null}
      </div>
    </li>
  );
}

function ResultsTable({ mode, hits, selection }: { mode: Props['mode']; hits: Props['hits']; selection?: HitSelection }) {
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          {mode === 'podcasts' ? (
            <tr>
              {selection ? (
                <th scope="col" className="select-cell">
                  <span className="visually-hidden">Select</span>
                </th>
              ) : null}
              <th scope="col">Podcast</th>
              <th scope="col">Author</th>
              <th scope="col">Authority</th>
              <th scope="col">Genres</th>
              <th scope="col">Episodes</th>
              <th scope="col">Last episode</th>
              <th scope="col">Apple rating</th>
              <th scope="col">Contact</th>
            </tr>
          ) : (
            <tr>
              <th scope="col">Episode</th>
              <th scope="col">Podcast</th>
              <th scope="col">Published</th>
              <th scope="col">Transcript</th>
            </tr>
          )}
        </thead>
        <tbody>
          {mode === 'podcasts'
            ? (hits as PodcastHit[]).map((hit) => (
                <tr key={hit.podcastId}>
                  {selection ? (
                    <td className="select-cell">
                      <SelectHit hit={hit} selection={selection} />
                    </td>
                  ) : null}
                  <td>
                    <Link to={links.podcast(hit.podcastSlug)}>{hit.podcastRssTitle}</Link>
                  </td>
                  <td>{hit.podcastRssAuthor ?? '—'}</td>
                  <td>{hit.podcastAuthorityScoreTotal != null ? Math.round(hit.podcastAuthorityScoreTotal) : '—'}</td>
                  <td>{hit.rssCategories?.length ? hit.rssCategories.slice(0, 3).join(', ') : '—'}</td>
                  <td>{formatNumber(hit.totalEpisodes)}</td>
                  <td>{formatDate(hit.lastEpisodeDate)}</td>
                  <td>{hit.applePodcastsRating?.toFixed(1) ?? '—'}</td>
                  <td>{hasContact(hit) ? 'Yes' : '—'}</td>
                </tr>
              ))
            : (hits as EpisodeHit[]).map((hit) => (
                <tr key={hit.episodeId}>
                  <td>
                    <Link to={links.appPodcast(hit.podcastSlug, hit.episodeSlug)}>{hit.episodeRssTitle}</Link>
                  </td>
                  <td>
                    <Link to={links.podcast(hit.podcastSlug)}>{hit.podcastRssTitle}</Link>
                  </td>
                  <td>{formatDate(hit.episodeRssPublishedAt)}</td>
                  <td>{hit.episodeHasTranscript ? 'Yes' : 'No'}</td>
                </tr>
              ))}
        </tbody>
      </table>
    </div>
  );
}

/** Cards drawn in the first render of a new list of results; the rest of the page follows
 * in a render of its own, so the first results are on screen sooner. */
const FIRST_DRAWN = 6;

export function SearchResults({ mode, hits, view, canAddToProject, selectedProjectSlug, selection, tier }: Props) {
  const deferred = useDeferredValue(hits, hits.slice(0, FIRST_DRAWN));
  // While the deferred list is another search's (a new query, another mode), the new
  // list's first cards stand in for it.
  const drawn = deferred === hits || (deferred.length > 0 && deferred[0] === hits[0]) ? deferred : hits.slice(0, FIRST_DRAWN);
  if (view === 'table') return <ResultsTable mode={mode} hits={hits} selection={mode === 'podcasts' ? selection : undefined} />;
  return (
    <ul className="results" data-testid="search-results">
      {mode === 'podcasts'
        ? (drawn as PodcastHit[]).map((hit) => (
            <PodcastResult key={hit.podcastId} hit={hit} canAdd={canAddToProject} project={selectedProjectSlug} selection={selection} tier={tier} />
          ))
        : (drawn as EpisodeHit[]).map((hit) => (
            <EpisodeResult key={hit.episodeId} hit={hit} canAdd={canAddToProject} project={selectedProjectSlug} />
          ))}
    </ul>
  );
}
