import { Link } from 'react-router';

import { BarChart } from '@/components/charts/charts';
import { PageHeader, Section } from '@/components/ui/page-header';
import { QueryState } from '@/components/ui/states';
import { formatNumber, formatPercent } from '@/lib/format';
import { links } from '@/config/paths';
import type { FieldFrequency } from '@/lib/api-types';

import { usePodcast2Stats as usePodcast2StatsQuery } from '../api/get-podcast2-stats';

function FieldChart({ rows, label }: { rows: FieldFrequency[]; label: string }) {
  const data = [...rows].sort((a, b) => b.percentage - a.percentage).slice(0, 20).map((row) => ({ field: row.field, percentage: row.percentage }));
  return (
    <BarChart
      label={label}
      layout="vertical"
      height={Math.max(180, data.length * 26)}
      categoryKey="field"
      domain={[0, 100]}
      series={[{ key: 'percentage', label: '% of feeds' }]}
      valueFormatter={(value) => `${value.toFixed(0)}%`}
      data={data}
    />
  );
}

export function Podcast2StatsPage() {
  const query = usePodcast2StatsQuery();
  return (
    <div>
      <PageHeader
        title="Podcasting 2.0 adoption"
        lead="How many feeds in the catalog use each Podcasting 2.0 tag, measured from the feeds themselves."
      />
      <QueryState query={query} feature="RSS statistics" loadingLabel="Counting tags…">
        {({ podcast2Stats: stats }) => (
          <>
            <Section title="Podcast-level tags">
              <p className="muted">{formatNumber(stats.podcastLevelStats.totalRssFeeds)} feeds analysed</p>
              <FieldChart rows={stats.podcastLevelStats.fieldFrequency} label="Share of feeds using each podcast-level tag" />
            </Section>
            <Section title="Episode-level tags">
              <p className="muted">{formatNumber(stats.episodeLevelStats.totalRssFeeds)} feeds analysed</p>
              <FieldChart rows={stats.episodeLevelStats.fieldFrequency} label="Share of feeds using each episode-level tag" />
            </Section>
            <Section title="Top hosting companies">
              <div className="table-wrap">
                <table className="table">
                  <thead>
                    <tr>
                      <th scope="col">Host</th>
                      <th scope="col">Podcasts</th>
                      <th scope="col">Share</th>
                    </tr>
                  </thead>
                  <tbody>
                    {stats.topHosts.map((host) => (
                      <tr key={host.host}>
                        <td>{host.host}</td>
                        <td>{formatNumber(host.totalPodcasts)}</td>
                        <td>{formatPercent(host.percentage)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </Section>
            {stats.topHostsWithPodcast2Stats.length > 0 ? (
              <Section title="Podcasting 2.0 fields per host">
                <BarChart
                  label="Average number of Podcasting 2.0 fields per podcast, by host"
                  layout="vertical"
                  height={Math.max(180, stats.topHostsWithPodcast2Stats.length * 26)}
                  categoryKey="host"
                  series={[{ key: 'averageNumPodcast2Fields', label: 'Average fields' }]}
                  data={stats.topHostsWithPodcast2Stats.map((row) => ({ host: row.host, averageNumPodcast2Fields: row.averageNumPodcast2Fields }))}
                />
              </Section>
            ) : null}
            {stats.topPodcast2Podcasts.length > 0 ? (
              <Section title="Podcasts using the most Podcasting 2.0 tags">
                <ol className="ranked">
                  {stats.topPodcast2Podcasts.map((podcast) => (
                    <li key={podcast.podcastId}>
                      <Link to={links.podcast(podcast.podcastSlug)}>{podcast.podcastSlug}</Link>{' '}
                      <span className="muted">
                        {podcast.numPodcast20Fields} tags · {podcast.host}
                      </span>
                    </li>
                  ))}
                </ol>
              </Section>
            ) : null}
          </>
        )}
      </QueryState>
    </div>
  );
}
