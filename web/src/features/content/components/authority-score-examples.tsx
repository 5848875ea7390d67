import { useQueries } from '@tanstack/react-query';
import { Link } from 'react-router';

import { Section } from '@/components/ui/page-header';
import { links } from '@/config/paths';
import { authorityScoreDetailsQueryOptions } from '@/features/podcasts/api/get-podcast';
import { useLatestPodcasts } from '@/features/podcasts/api/get-latest-podcasts';
import { AuthorityScoreBreakdown, readingsFromDetails } from '@/features/podcasts/components/authority-score';

/** How many scored podcasts are shown. */
const EXAMPLES = 3;

/** Real scores from this server's catalog: the first scored podcasts of the latest ones
 * (the listing says which have a score, so no unscored one is asked for its breakdown),
 * each with its breakdown. Nothing is shown when the catalog has none to show. */
export function AuthorityScoreExamples() {
  const latest = useLatestPodcasts();
  const candidates = (latest.data?.podcasts ?? []).filter((podcast) => podcast.authorityScore != null).slice(0, EXAMPLES);
  const details = useQueries({ queries: candidates.map((podcast) => authorityScoreDetailsQueryOptions(podcast.id)) });
  if (candidates.length === 0 || details.some((query) => query.isPending)) return null;
  const examples = candidates
    .flatMap((podcast, index) => {
      const score = details[index].data;
      return score ? [{ podcast, score }] : [];
    });
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
