import { Link, useSearchParams } from 'react-router';

import { BarChart } from '@/components/charts/charts';
import { Artwork } from '@/components/ui/artwork';
import { PageHeader } from '@/components/ui/page-header';
import { EmptyState, QueryState } from '@/components/ui/states';
import { links } from '@/config/paths';

import { CHART_TYPES, useChart, useChartCategories, useChartCountries, type ChartType } from '../api/charts';

type ChartMovement = 'up' | 'down' | 'unchanged' | 'entered' | 'unknown';

/** The change since the compared chart; `unknown` when there is no chart to compare with. */
function Movement({ movement, change }: { movement: ChartMovement; change: number | null }) {
  const places = Math.abs(change ?? 0);
  switch (movement) {
    case 'up':
      return <span className="movement movement-up" title={`Up ${places}`}>▲ {places}<span className="visually-hidden"> up</span></span>;
    case 'down':
      return <span className="movement movement-down" title={`Down ${places}`}>▼ {places}<span className="visually-hidden"> down</span></span>;
    case 'entered':
      return <span className="movement movement-new">new</span>;
    case 'unchanged':
      return <span className="movement" title="Same position">=<span className="visually-hidden"> same</span></span>;
    default:
      return <span className="movement muted" title="No earlier chart to compare with">–</span>;
  }
}

/** /app/charts?chartType&country&category&date */
export function ChartsPage() {
  const [params, setParams] = useSearchParams();
  const chartType = (CHART_TYPES as readonly string[]).includes(params.get('chartType') ?? '') ? (params.get('chartType') as ChartType) : 'apple';
  const countries = useChartCountries(chartType);
  const categories = useChartCategories(chartType);
  const country = params.get('country') ?? countries.data?.countries[0] ?? 'us';
  const category = params.get('category') ?? categories.data?.categories[0] ?? 'top podcasts';
  const date = params.get('date') ?? undefined;
  const chart = useChart({ chartType, country, category, date });
  const update = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next);
  };

  return (
    <div>
      <PageHeader title="Charts" lead="Apple and Spotify podcast charts by country and category, with position changes." />
      <div className="toolbar" role="group" aria-label="Chart">
        <label className="field inline">
          <span>Chart</span>
          <select value={chartType} onChange={(event) => update('chartType', event.target.value)}>
            {CHART_TYPES.map((type) => (
              <option key={type} value={type}>
                {type === 'apple' ? 'Apple Podcasts' : 'Spotify'}
              </option>
            ))}
          </select>
        </label>
        <label className="field inline">
          <span>Country</span>
          <select value={country} onChange={(event) => update('country', event.target.value)}>
            {(countries.data?.countries ?? [country]).map((code) => (
              <option key={code} value={code}>
                {code.toUpperCase()}
              </option>
            ))}
          </select>
        </label>
        <label className="field inline">
          <span>Category</span>
          <select value={category} onChange={(event) => update('category', event.target.value)}>
            {(categories.data?.categories ?? [category]).map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label className="field inline">
          <span>Date</span>
          <input type="date" value={date ?? ''} onChange={(event) => update('date', event.target.value)} />
        </label>
      </div>
      <QueryState
        query={chart}
        feature="Charts"
        isEmpty={(data) => !data.chart || data.chart.positions.length === 0}
        empty={<EmptyState title="No chart for this choice">Try another country, category or date.</EmptyState>}
      >
        {(data) => {
          const positions = data.chart!.positions;
          const movers = positions
            .filter((p) => p.positionChange !== null && p.positionChange !== 0)
            .sort((a, b) => Math.abs(b.positionChange ?? 0) - Math.abs(a.positionChange ?? 0))
            .slice(0, 10);
          return (
            <>
              <p className="muted">Chart of {data.chart!.chart.chartDate}</p>
              {movers.length > 0 ? (
                <BarChart
                  label="Biggest position changes"
                  layout="vertical"
                  height={Math.max(160, movers.length * 28)}
                  categoryKey="title"
                  series={[{ key: 'change', label: 'Places gained' }]}
                  data={movers.map((p) => ({ title: p.podcastOnChart.title, change: p.positionChange ?? 0 }))}
                />
              ) : null}
              <ol className="chart-list" data-testid="chart-positions">
                {positions.map((position) => (
                  <li key={`${position.position}-${position.podcastOnChart.podcastOnChartId}`}>
                    <span className="chart-position">{position.position}</span>
                    <Artwork src={position.podcastOnChart.imageUrl} title={position.podcastOnChart.title} size={40} />
                    <span className="grow">
                      {position.podenginePodcast ? (
                        <Link to={links.podcast(position.podenginePodcast.slug)}>{position.podcastOnChart.title}</Link>
                      ) : (
                        position.podcastOnChart.title
                      )}
                      {position.podcastOnChart.creator ? <span className="muted"> · {position.podcastOnChart.creator}</span> : null}
                    </span>
                    <Movement movement={position.movement} change={position.positionChange} />
                  </li>
                ))}
              </ol>
            </>
          );
        }}
      </QueryState>
    </div>
  );
}
