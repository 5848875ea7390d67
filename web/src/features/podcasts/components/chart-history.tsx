import { useState } from 'react';

import { LineChart } from '@/components/charts/charts';
import { Section } from '@/components/ui/page-header';
import { EmptyState, ErrorState, QueryState, Spinner } from '@/components/ui/states';
import { formatDate } from '@/lib/format';
import type { ChartPresence, GetPodcastChartHistoryResponse } from '@/lib/api-types';

import { CHART_HISTORY_RANGES, useChartHistory, useChartPresence, type ChartHistoryRange } from '../api/get-chart-history';

const chartKey = (chart: Pick<ChartPresence, 'chartType' | 'country' | 'category'>) => `${chart.chartType}|${chart.country}|${chart.category}`;
const chartName = (chart: Pick<ChartPresence, 'chartType' | 'country' | 'category'>) =>
  `${chart.chartType === 'apple' ? 'Apple Podcasts' : 'Spotify'} · ${chart.country.toUpperCase()} · ${chart.category}`;

const STATE_LABELS: Record<ChartPresence['state'], string> = {
  on_now: 'on the chart now',
  dropped_30d: 'dropped off in the last 30 days',
  older: 'charted earlier',
  unknown: 'unknown',
};

/** The change since the previous capture, as words a screen reader can say. */
function ChangeBadge({ chart }: { chart: ChartPresence }) {
  if (chart.changeKind === 'new') return <span className="movement movement-new">new</span>;
  if (chart.changeKind === 'back') return <span className="movement movement-new">back</span>;
  if (chart.changeKind === 'off') return <span className="movement movement-down">off the chart</span>;
  if (chart.change === null || chart.change === 0) return <span className="movement">unchanged</span>;
  return chart.change > 0 ? (
    <span className="movement movement-up" aria-label={`up ${chart.change}`}>▲ {chart.change}</span>
  ) : (
    <span className="movement movement-down" aria-label={`down ${-chart.change}`}>▼ {-chart.change}</span>
  );
}

/** Rows for the line chart: daily positions (gaps when off the chart) or weekly best ranks. */
export function historyRows(history: GetPodcastChartHistoryResponse['history']): { date: string; position: number | null }[] {
  if (history.series.resolution === 'daily') {
    return history.series.points.map((point) => ({ date: point.date, position: point.status === 'observed' ? point.position : null }));
  }
  return history.series.buckets.map((bucket) => ({ date: bucket.startDate, position: bucket.bestPosition }));
}

function HistoryChart({ slug, chart, range }: { slug: string; chart: ChartPresence; range: ChartHistoryRange }) {
  const query = useChartHistory({ podcastIdOrSlug: slug, chartType: chart.chartType, country: chart.country, category: chart.category, range });
  if (query.isPending) return <Spinner label="Loading chart history…" />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  const { history } = query.data;
  const rows = historyRows(history);
  const stats = history.stats;
  return (
    <>
      {rows.some((row) => row.position !== null) ? (
        <LineChart
          label={`Positions on ${chartName(chart)} from ${history.range.startDate} to ${history.range.endDate} (1 is the top)`}
          data={rows}
          xKey="date"
          reversed
          series={[{ key: 'position', label: 'Position' }]}
        />
      ) : (
        <EmptyState title="Not on this chart in this period" />
      )}
      <dl className="facts" data-testid="chart-history-stats">
        <div>
          <dt>Best position</dt>
          <dd>{stats.bestPosition ?? '—'}</dd>
        </div>
        <div>
          <dt>Average position</dt>
          <dd>{stats.averagePositionWhenCharting === null ? '—' : stats.averagePositionWhenCharting.toFixed(1)}</dd>
        </div>
        <div>
          <dt>Days on the chart</dt>
          <dd>{stats.daysOnChart}</dd>
        </div>
        <div>
          <dt>Current streak</dt>
          <dd>{stats.streak.days === null ? '—' : `${stats.streak.days} days`}</dd>
        </div>
      </dl>
    </>
  );
}

/** The podcast's chart history: every chart it is or was on, and one chart's positions over time. */
export function ChartHistorySection({ slug }: { slug: string }) {
  const query = useChartPresence(slug);
  const [chosen, setChosen] = useState<string | null>(null);
  const [range, setRange] = useState<ChartHistoryRange>('90d');
  return (
    <Section title="Chart history">
      <QueryState
        query={query}
        feature="Chart history"
        isEmpty={(data) => data.presence.charts.length === 0}
        empty={<EmptyState title="Not on any chart">This podcast has not appeared on the Apple or Spotify charts we track.</EmptyState>}
      >
        {({ presence }) => {
          const charts = presence.charts;
          const selected = charts.find((chart) => chartKey(chart) === chosen) ?? charts.find((chart) => chart.state === 'on_now') ?? charts[0];
          return (
            <>
              <p className="muted">
                On {presence.summary.onNow} chart{presence.summary.onNow === 1 ? '' : 's'} now in {presence.summary.markets} market
                {presence.summary.markets === 1 ? '' : 's'}, {presence.summary.top10Now} in a top 10.
              </p>
              <div className="toolbar">
                <label className="field inline">
                  <span>Chart</span>
                  <select value={chartKey(selected)} onChange={(event) => setChosen(event.target.value)}>
                    {charts.map((chart) => (
                      <option key={chartKey(chart)} value={chartKey(chart)}>
                        {chartName(chart)}
                      </option>
                    ))}
                  </select>
                </label>
                <label className="field inline">
                  <span>Period</span>
                  <select value={range} onChange={(event) => setRange(event.target.value as ChartHistoryRange)}>
                    {CHART_HISTORY_RANGES.map((item) => (
                      <option key={item.value} value={item.value}>
                        {item.label}
                      </option>
                    ))}
                  </select>
                </label>
              </div>
              <HistoryChart key={`${chartKey(selected)}|${range}`} slug={slug} chart={selected} range={range} />
              <div className="table-wrap">
                <table className="table" aria-label="Charts this podcast is or was on">
                  <thead>
                    <tr>
                      <th scope="col">Chart</th>
                      <th scope="col">Last position</th>
                      <th scope="col">Change</th>
                      <th scope="col">Best ever</th>
                      <th scope="col">Status</th>
                    </tr>
                  </thead>
                  <tbody>
                    {charts.map((chart) => (
                      <tr key={chartKey(chart)}>
                        <td>{chartName(chart)}</td>
                        <td>
                          #{chart.lastSeen.position} <span className="muted">({formatDate(chart.lastSeen.date)})</span>
                        </td>
                        <td>
                          <ChangeBadge chart={chart} />
                        </td>
                        <td>#{chart.bestAllTime.position}</td>
                        <td>{STATE_LABELS[chart.state]}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          );
        }}
      </QueryState>
    </Section>
  );
}
