import { Link } from 'react-router';

import { Section } from '@/components/ui/page-header';
import { EmptyState } from '@/components/ui/states';
import { paths } from '@/config/paths';
import type { AuthorityScore, AuthorityScoreDetails } from '@/lib/api-types';

import { useAuthorityScoreDetails } from '../api/get-podcast';

type SubScoreKey = keyof AuthorityScoreDetails['subScores'];

/** The four sub-scores (SPEC §3, docs/authority-score.md) and what each measures, in one line. */
export const SUB_SCORES: { key: SubScoreKey; label: string; summaryField: keyof AuthorityScore; measures: string }[] = [
  {
    key: 'quality',
    label: 'Quality',
    summaryField: 'qualityScore',
    measures: 'How the show is made and kept up: regular episodes, their length and artwork, episode count, age, show notes, guests.',
  },
  {
    key: 'social',
    label: 'Social',
    summaryField: 'socialScore',
    measures: 'Its audience on social platforms and the web: social links in the feed and on the website, follower counts.',
  },
  { key: 'youtube', label: 'YouTube', summaryField: 'youtubeScore', measures: "Its YouTube channel's subscribers and views." },
  {
    key: 'engagement',
    label: 'Engagement',
    summaryField: 'engagementScore',
    measures: 'What listeners do: reviews and ratings, chart positions, Castbox plays and subscribers.',
  },
];

/** A sub-score as shown: `score` is null when it was not measured; `share` is its part
 * of the final score (0 to 1) when known; `maybeUnmeasured` marks a 0 that may mean
 * "no data" because the weights could not be read. */
export type SubScoreReading = { key: SubScoreKey; score: number | null; share?: number; maybeUnmeasured?: boolean };

/** From the details: a sub-score of weight 0 had no known input (it is reported as 0 but is not a 0). */
export const readingsFromDetails = (details: AuthorityScoreDetails): SubScoreReading[] =>
  SUB_SCORES.map(({ key }) => {
    const part = details.subScores[key];
    return part.weight > 0 ? { key, score: part.score, share: part.weight } : { key, score: null };
  });

/** From the compact summary alone, which cannot tell a measured 0 from a missing sub-score. */
export const readingsFromSummary = (summary: AuthorityScore): SubScoreReading[] =>
  SUB_SCORES.map(({ key, summaryField }) => {
    const score = Number(summary[summaryField]);
    return { key, score, maybeUnmeasured: score === 0 };
  });

const percent = (share: number) => `${Math.round(share * 100)}%`;

function valueText(reading: SubScoreReading): string {
  if (reading.score === null) return 'not measured';
  if (reading.maybeUnmeasured) return '0 or not measured';
  return String(Math.round(reading.score));
}

/** The score out of 100 and each sub-score with what it measures; a sub-score without data says so. */
export function AuthorityScoreBreakdown({
  finalScore,
  readings,
  label = 'Authority score breakdown',
  valueLabel = 'Authority score value',
}: {
  finalScore: number;
  readings: SubScoreReading[] | null;
  label?: string;
  valueLabel?: string;
}) {
  return (
    <div className="authority-score">
      <p className="big-number" aria-label={valueLabel}>
        {Math.round(finalScore)}
        <span className="muted"> / 100</span>
      </p>
      {readings === null ? (
        <p className="muted">Loading the breakdown…</p>
      ) : (
        <ul className="score-parts" aria-label={label}>
          {readings.map((reading) => {
            const part = SUB_SCORES.find((item) => item.key === reading.key)!;
            return (
              <li key={reading.key} className="score-part" data-testid={`score-part-${reading.key}`}>
                <div className="score-part-head">
                  <span className="score-part-name">{part.label}</span>
                  <span className={reading.score === null ? 'score-part-value muted' : 'score-part-value'}>{valueText(reading)}</span>
                </div>
                <div className={reading.score === null ? 'score-bar score-bar-none' : 'score-bar'} aria-hidden="true">
                  {reading.score !== null ? <span style={{ width: `${Math.min(100, Math.max(0, reading.score))}%` }} /> : null}
                </div>
                <p className="score-part-measures">
                  {part.measures}
                  {reading.share !== undefined ? <span className="muted"> Counts for {percent(reading.share)} of this score.</span> : null}
                  {reading.score === null ? <span className="muted"> No data on it, so it is left out of this score.</span> : null}
                </p>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

/** The podcast page's score: the summary's total at once, the breakdown from the details
 * (weights tell which sub-scores had data); without the details, the summary's values. */
export function AuthorityScoreSection({ podcastId, score }: { podcastId: string; score: AuthorityScore | null }) {
  const details = useAuthorityScoreDetails(podcastId, score !== null);
  const readings = details.data ? readingsFromDetails(details.data) : details.isError && score ? readingsFromSummary(score) : null;
  return (
    <Section title="Authority score">
      {score ? (
        <>
          <AuthorityScoreBreakdown finalScore={score.authorityScore} readings={readings} />
          <p className="muted">
            <Link to={paths.authorityScore.pattern}>How the authority score works</Link>
          </p>
        </>
      ) : (
        <EmptyState title="Not scored yet">The authority score is computed by the scoring job.</EmptyState>
      )}
    </Section>
  );
}
