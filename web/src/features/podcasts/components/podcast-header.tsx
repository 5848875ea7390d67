import { Artwork } from '@/components/ui/artwork';
import { formatDate, formatNumber } from '@/lib/format';
import type { Podcast } from '@/lib/api-types';

import { directoryLabel } from '../labels';

export function PodcastHeader({ podcast }: { podcast: Podcast }) {
  const directories = Object.entries(podcast.podcastDirectoryLinks ?? {}).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '',
  );
  return (
    <header className="podcast-header">
      <Artwork src={podcast.imageUrl} title={podcast.title} size={160} />
      <div className="podcast-header-body">
        <h1>{podcast.title}</h1>
        {podcast.author ? <p className="lead">by {podcast.author}</p> : null}
        <ul className="tags" aria-label="Genres">
          {podcast.genres.map((genre) => (
            <li key={genre} className="tag">
              {genre}
            </li>
          ))}
          {podcast.explicitRss ? <li className="tag tag-warn">Explicit</li> : null}
        </ul>
        <dl className="facts">
          <div>
            <dt>Episodes</dt>
            <dd>{formatNumber(podcast.stats.episodeCount)}</dd>
          </div>
          <div>
            <dt>Transcripts</dt>
            <dd>
              {formatNumber(podcast.stats.transcriptsCount)}
              {podcast.stats.transcriptsUnavailable ? (
                <span
                  className="muted"
                  title="The feed links these transcripts but they could not be fetched yet; re-polls retry them."
                >
                  {" "}
                  ({formatNumber(podcast.stats.transcriptsUnavailable)} unavailable)
                </span>
              ) : null}
            </dd>
          </div>
          <div>
            <dt>Latest episode</dt>
            <dd>{formatDate(podcast.stats.latestPublishedAt ?? podcast.lastEpisodePublishedAt)}</dd>
          </div>
          <div>
            <dt>Updates</dt>
            <dd>{podcast.stats.updateFrequency}</dd>
          </div>
          <div>
            <dt>Language</dt>
            <dd>{podcast.language ? podcast.language.toUpperCase() : "—"}</dd>
          </div>
          {podcast.podcastAffiliation?.affiliationType ? (
            <div>
              <dt>Affiliation</dt>
              <dd>
                {podcast.podcastAffiliation.affiliationType}
                {podcast.podcastAffiliation.affiliateOrganizationName
                  ? ` (${podcast.podcastAffiliation.affiliateOrganizationName})`
                  : ''}
              </dd>
            </div>
          ) : null}
        </dl>
        <ul className="link-row" aria-label="Links">
          {podcast.websiteUrl ? (
            <li>
              <a href={podcast.websiteUrl} rel="noopener noreferrer nofollow" target="_blank">
                Website
              </a>
            </li>
          ) : null}
          <li>
            <a href={podcast.rssFeedUrl} rel="noopener noreferrer nofollow" target="_blank">
              RSS Feed
            </a>
          </li>
          {directories.map(([kind, url]) => (
            <li key={kind}>
              <a href={url} rel="noopener noreferrer nofollow" target="_blank">
                {directoryLabel(kind)}
              </a>
            </li>
          ))}
        </ul>
      </div>
    </header>
  );
}
