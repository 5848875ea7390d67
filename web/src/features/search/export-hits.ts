// The CSV of selected podcast hits, built in the browser from the fields the results
// table shows (no export call, so nothing is counted against the plan's exports).

import { links } from '@/config/paths';
import type { PodcastHit } from '@/lib/api-types';

export const HIT_EXPORT_COLUMNS = [
  'Title',
  'Podcast ID',
  'Authority score',
  'Genres',
  'Episodes',
  'Last episode',
  'Apple rating',
  'Contact available',
  'URL',
] as const;

/** Whether the hit names someone to write to: a primary contact or an email. */
export const hasContact = (hit: PodcastHit) => Boolean(hit.primaryContact) || (hit.podcastEmails?.length ?? 0) > 0;

/** A CSV field: quoted when it holds a comma, quote or line break (RFC 4180), and a
 * leading =, +, -, @ or tab escaped with ' so a spreadsheet does not run it as a formula. */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const isoDay = (value: string | null | undefined): string => {
  if (!value) return '';
  const time = Date.parse(value);
  return Number.isNaN(time) ? value : new Date(time).toISOString().slice(0, 10);
};

/** One row per hit, in the table's units: the score rounded, the rating to one decimal,
 * every genre, the day of the last episode, the podcast's page on `origin`. */
export function podcastHitsCsv(hits: readonly PodcastHit[], origin: string): string {
  const rows = hits.map((hit) => [
    hit.podcastRssTitle,
    hit.podcastId,
    hit.podcastAuthorityScoreTotal != null ? String(Math.round(hit.podcastAuthorityScoreTotal)) : '',
    (hit.rssCategories ?? []).join('; '),
    hit.totalEpisodes != null ? String(hit.totalEpisodes) : '',
    isoDay(hit.lastEpisodeDate),
    hit.applePodcastsRating != null ? hit.applePodcastsRating.toFixed(1) : '',
    hasContact(hit) ? 'yes' : 'no',
    `${origin}${links.podcast(hit.podcastSlug)}`,
  ]);
  return [[...HIT_EXPORT_COLUMNS], ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}
