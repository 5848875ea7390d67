import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { setApiKey } from '@/lib/auth-storage';
import { renderApp, stubApi } from '@/test/render';

beforeEach(() => setApiKey('pl_key'));
afterEach(() => vi.unstubAllGlobals());

const alertConfig = { id: 'a1', alertName: 'Ana Lopez mentions', alertType: 'person', enabled: true, lastRunDate: '2026-11-01' };
const mention = (id: string, snippet: string, passesFilters: boolean) => ({ id, startSecond: 754, snippet, passesFilters, filterReasons: passesFilters ? [] : ['ad'], labels: [], playUrl: `https://example.com/a.mp3#t=754` });
const match = {
  id: 'm1',
  alertConfig: { id: 'a1', name: 'Ana Lopez mentions', type: 'person' },
  status: 'kept',
  filterReasons: [],
  episode: { id: 'e1', slug: 'soil-and-climate', title: 'Soil and climate', publishedAt: '2026-11-02', imageUrl: null },
  podcast: { id: 'p1', slug: 'climate-hour', title: 'Climate Hour' },
  appearance: { role: 'guest', source: 'people_data' },
  mentionCount: 2,
  keptMentionCount: 1,
  syndicatedEpisodeIds: [],
  firstMatchedAt: '2026-11-02',
  mentions: [mention('x1', 'Ana Lopez joins us to talk soil', true), mention('x2', 'sponsored by Ana Lopez shoes', false)],
};

describe('an alert', () => {
  it('shows the episodes it matched with the mentions that passed the filters', async () => {
    const calls = stubApi((url) => {
      if (url.pathname === '/api/v1/alerts/alert-configs') return { body: { alertConfigs: [alertConfig], total: 1 } };
      if (url.pathname === '/api/v1/alerts/matches') return { body: { options: {}, total: 1, matches: [match] } };
      return undefined;
    });
    renderApp('/app/alerts/a1');
    const list = await screen.findByRole('list', { name: 'Alert matches' });
    expect(within(list).getByRole('link', { name: 'Soil and climate' })).toHaveAttribute('href', '/app/podcasts/climate-hour/soil-and-climate');
    expect(within(list).getByText('Ana Lopez joins us to talk soil')).toBeInTheDocument();
    expect(within(list).queryByText('sponsored by Ana Lopez shoes')).toBeNull();
    expect(within(list).getByText(/1 of 2 mentions kept/)).toBeInTheDocument();
    expect(within(list).getByRole('link', { name: 'Play from 12 min' })).toHaveAttribute('href', match.mentions[0].playUrl);
    expect(calls.find((call) => call.url.pathname === '/api/v1/alerts/matches')!.url.searchParams.get('alertConfigId')).toBe('a1');
  });

  it('says when an alert has matched nothing yet', async () => {
    stubApi((url) => {
      if (url.pathname === '/api/v1/alerts/alert-configs') return { body: { alertConfigs: [alertConfig], total: 1 } };
      if (url.pathname === '/api/v1/alerts/matches') return { body: { options: {}, total: 0, matches: [] } };
      return undefined;
    });
    renderApp('/app/alerts/a1');
    expect(await screen.findByText('No matches yet')).toBeInTheDocument();
  });
});
