import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { renderWithProviders, stubApi } from '@/test/render';

import { ChartHistorySection } from './chart-history';

const week = { startDate: '2026-10-01', endDate: '2026-10-07', isPartial: false };
const presenceItem = (chartType: 'apple' | 'spotify', category: string, last: number, change: number | null, state: string) => ({
  chartType,
  country: 'us',
  category,
  state,
  latestCaptureDate: '2026-11-20',
  lastSeen: { date: '2026-11-20', position: last },
  previous: null,
  changeKind: change === null ? 'new' : 'moved',
  change,
  weeks: [],
  weeksOn: 3,
  weeksCaptured: 14,
  capturesInWindow: 20,
  daysOnChartInWindow: 20,
  bestInWindow: last,
  averageInWindow: last,
  bestAllTime: { date: '2026-10-02', position: 2 },
  firstSeenDate: '2026-09-01',
});
const presence = {
  presence: {
    window: { startDate: '2026-08-20', endDate: '2026-11-20', weeks: [week] },
    latestChartDate: '2026-11-20',
    homeCountry: 'us',
    summary: { onNow: 1, markets: 1, onNowByPlatform: { apple: 1, spotify: 0 }, droppedOff30d: 1, older: 0, top10Now: 1 },
    charts: [presenceItem('apple', 'science', 7, 3, 'on_now'), presenceItem('spotify', 'top podcasts', 40, null, 'dropped_30d')],
  },
};
const history = (best: number) => ({
  history: {
    podenginePodcast: null,
    podcastOnChart: null,
    identity: { type: 'podcast', podcastId: 'p1', slug: 'climate-hour' },
    chart: { chartType: 'apple', category: 'science', country: 'us', earliestChartDate: '2026-01-01', latestChartDate: '2026-11-20' },
    range: { range: '90d', startDate: '2026-08-23', endDate: '2026-11-20' },
    stats: {
      bestPosition: best,
      averagePositionWhenCharting: 9.25,
      daysOnChart: 41,
      chartDays: 90,
      offChartDays: 49,
      unknownDays: 0,
      missingDays: 0,
      calendarDays: 90,
      firstSeenDate: '2026-09-01',
      lastSeenDate: '2026-11-20',
      streak: { days: 12, endDateStatus: 'observed', startDate: '2026-11-09', boundedByMissingCoverage: false },
    },
    series: {
      resolution: 'daily',
      points: [
        { date: '2026-11-19', position: 10, status: 'observed', chartCoverage: 'complete' },
        { date: '2026-11-20', position: 7, status: 'observed', chartCoverage: 'complete' },
      ],
    },
  },
});

afterEach(() => vi.unstubAllGlobals());

describe('the chart history of a podcast', () => {
  it('lists every chart the podcast was on and plots the chosen one over the chosen period', async () => {
    const calls = stubApi((url) => {
      if (url.pathname === '/api/v1/podcasts/climate-hour/charts/presence') return { body: presence };
      if (url.pathname === '/api/v1/charts/podcast-history') return { body: history(url.searchParams.get('chartType') === 'apple' ? 3 : 25) };
      return undefined;
    });
    renderWithProviders(<ChartHistorySection slug="climate-hour" />);
    const table = await screen.findByRole('table', { name: 'Charts this podcast is or was on' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(presence.presence.charts.length);
    expect(rows[0]).toHaveTextContent('#7');
    expect(within(rows[0]).getByLabelText('up 3')).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('new');
    // The chart on now is plotted first, with the server's statistics.
    const stats = await screen.findByTestId('chart-history-stats');
    expect(stats).toHaveTextContent('Best position3');
    expect(stats).toHaveTextContent('41');
    expect(stats).toHaveTextContent('12 days');
    const first = calls.find((call) => call.url.pathname === '/api/v1/charts/podcast-history')!.url.searchParams;
    expect(Object.fromEntries(first)).toMatchObject({ podcastIdOrSlug: 'climate-hour', chartType: 'apple', country: 'us', category: 'science', range: '90d' });
    expect(screen.getByRole('figure', { name: /Positions on Apple Podcasts · US · science/ })).toBeInTheDocument();

    fireEvent.change(screen.getByRole('combobox', { name: 'Chart' }), { target: { value: 'spotify|us|top podcasts' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Period' }), { target: { value: '1y' } });
    await waitFor(() => expect(screen.getByTestId('chart-history-stats')).toHaveTextContent('Best position25'));
    const last = calls.filter((call) => call.url.pathname === '/api/v1/charts/podcast-history').at(-1)!.url.searchParams;
    expect(last.get('chartType')).toBe('spotify');
    expect(last.get('range')).toBe('1y');
  });

  it('says so when the podcast never charted', async () => {
    stubApi(() => ({ body: { presence: { ...presence.presence, charts: [] } } }));
    renderWithProviders(<ChartHistorySection slug="quiet-show" />);
    expect(await screen.findByText('Not on any chart')).toBeInTheDocument();
  });
});
