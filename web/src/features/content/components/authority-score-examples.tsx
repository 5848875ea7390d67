import { useQueries } from '@tanstack/react-query';
import { Link } from 'react-router';

import { Section } from '@/components/ui/page-header';
import { links } from '@/config/paths';
import { authorityScoreDetailsQueryOptions } from '@/features/podcasts/api/get-podcast';
import { useLatestPodcasts } from '@/features/podcasts/api/get-latest-podcasts';
import { AuthorityScoreBreakdown, readingsFromDetails } from '@/features/podcasts/components/authority-score';

/** How many of the latest podcasts are looked at, and how many scored ones are shown. */
const CANDIDATES = 6;
const EXAMPLES = 3;

/** Real scores from this server's catalog: the first scored podcasts of the latest ones,
 * each with its breakdown. Nothing is shown when the catalog has none to show. */
export function AuthorityScoreExamples() {
  const latest = useLatestPodcasts();
  const candidates = latest.data?.podcasts.slice(0, CANDIDATES) ?? [];
  const details = useQueries({ queries: candidates.map((podcast) => authorityScoreDetailsQueryOptions(podcast.id)) });
  if (candidates.length === 0 || details.some((query) => query.isPending)) return null;
  const examples = candidates
    .flatMap((podcast, index) => {
      const score = details[index].data;
      return score ? [{ podcast, score }] : [];
    })
    .slice(0, EXAMPLES);
  if (examples.length === 0) return null;
  return (
    <Section title="Examples from the catalog">
      <ul className="grid-3 score-examples">
        {examples.map(({ podcast, score }) => (
          <li key={podcast.id} className="card">
            <h3>
              <Link to={links.podcast(podcast.slug)}>{podcast.title}</Link>
            </h3>
            <AuthorityScoreBreakdown
              finalScore={score.finalScore}
              readings={readingsFromDetails(score)}
              valueLabel={`Authority score of ${podcast.title}`}
              label={`Authority score breakdown of ${podcast.title}`}
            />
          </li>
        ))}
      </ul>
    </Section>
  );
}
