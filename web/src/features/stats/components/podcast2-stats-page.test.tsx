import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { renderApp, stubApi } from '@/test/render';

// recharts draws nothing at jsdom's zero size: the wrapper is replaced by a table of
// the data it is given, so the tests see what each chart would plot.
vi.mock('@/components/charts/charts', () => ({
  BarChart: ({ label, data, categoryKey, series }: { label: string; data: Record<string, unknown>[]; categoryKey: string; series: { key: string }[] }) => (
    <table aria-label={label}>
      <tbody>
        {data.map((row) => (
          <tr key={String(row[categoryKey])}>
            <th>{String(row[categoryKey])}</th>
            <td>{String(row[series[0].key])}</td>
          </tr>
        ))}
      </tbody>
    </table>
  ),
}));

const field = (name: string, percentage: number) => ({ field: name, frequency: Math.round(percentage * 10), percentage });
// 22 podcast-level tags: the chart keeps the 20 most used, most used first.
const podcastFields = Array.from({ length: 22 }, (_, index) => field(`podcast:tag${index}`, index * 4));
const stats = {
  podcast2Stats: {
    podcastLevelStats: { totalRssFeeds: 1200, fieldFrequency: podcastFields },
    episodeLevelStats: { totalRssFeeds: 1150, fieldFrequency: [field('podcast:chapters', 12.5), field('podcast:transcript', 40)] },
    topHosts: [
      { host: 'buzzsprout.com', totalPodcasts: 300, percentage: 25 },
      { host: 'anchor.fm', totalPodcasts: 240, percentage: 20 },
    ],
    topHostsWithPodcast2Stats: [{ host: 'buzzsprout.com', totalPodcasts: 300, averageNumPodcast2Fields: 4.5 }],
    topHostsWithPodcast2Transcripts: [],
    topPodcast2Podcasts: [{ podcastId: 'p1', podcastSlug: 'climate-hour', podcastImageUrl: null, host: 'buzzsprout.com', numPodcast20Fields: 14, implementedFields: [], rssFeedUrl: 'https://example.com/feed' }],
  },
};

afterEach(() => vi.unstubAllGlobals());

describe('the Podcasting 2.0 statistics page', () => {
  it('charts tag adoption from the public statistics and lists the hosts and podcasts', async () => {
    const calls = stubApi((url) => (url.pathname === '/api/v1/rss/stats/public/podcast2' ? { body: stats } : undefined));
    renderApp('/stats/podcast-2');
    const podcastChart = await screen.findByRole('table', { name: 'Share of feeds using each podcast-level tag' });
    const plotted = within(podcastChart).getAllByRole('row').map((row) => row.textContent);
    expect(plotted).toHaveLength(20);
    expect(plotted[0]).toBe('podcast:tag2184');
    expect(plotted.at(-1)).toBe('podcast:tag28');
    const episodeChart = screen.getByRole('table', { name: 'Share of feeds using each episode-level tag' });
    expect(within(episodeChart).getAllByRole('row').map((row) => row.textContent)).toEqual(['podcast:transcript40', 'podcast:chapters12.5']);
    expect(screen.getByText('1,200 feeds analysed')).toBeInTheDocument();
    expect(screen.getByText('1,150 feeds analysed')).toBeInTheDocument();

    const hosts = within(screen.getByRole('region', { name: 'Top hosting companies' })).getAllByRole('row').slice(1);
    expect(hosts.map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
      ['buzzsprout.com', '300', '25.0%'],
      ['anchor.fm', '240', '20.0%'],
    ]);
    expect(within(screen.getByRole('table', { name: 'Average number of Podcasting 2.0 fields per podcast, by host' })).getByRole('row')).toHaveTextContent('buzzsprout.com4.5');
    expect(screen.getByRole('link', { name: 'climate-hour' })).toHaveAttribute('href', '/podcasts/climate-hour');
    expect(calls.filter((call) => call.url.pathname === '/api/v1/rss/stats/public/podcast2')).toHaveLength(1);
  });

  it("shows the server's message when the statistics cannot be read", async () => {
    stubApi((url) =>
      url.pathname === '/api/v1/rss/stats/public/podcast2' ? { status: 503, body: { status: 'SERVICE_UNAVAILABLE', data: { message: 'The catalog has not been built yet' } } } : undefined,
    );
    renderApp('/stats/podcast-2');
    expect(await screen.findByRole('alert')).toHaveTextContent('The catalog has not been built yet');
  });
});
