import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { setApiKey } from '@/lib/auth-storage';
import { renderApp, stubApi } from '@/test/render';
import { specLimitsTable } from '@/test/spec';

// SPEC §9: the business plan's monthly searches.
const businessSearches = Number(specLimitsTable().find((row) => row.item === 'Searches')!.cells[3].split('/')[0]);

const usage = {
  plan: 'business',
  periodStart: '2026-11-01',
  periodEnd: '2026-11-30',
  totalUsed: 250,
  featureFlags: {},
  aliases: [
    { alias: 'searchCount', label: 'Searches', used: 250, limit: businessSearches },
    { alias: 'podcastLookups', label: 'Podcast lookups', used: 12, limit: null },
  ],
};

const podcastSummary = (id: string, title: string) => ({ id, slug: id, title, author: null, genres: [], imageUrl: null, language: 'en', lastEpisodePublishedAt: null, titleLatest: title, authorityScore: null });
const episode = (id: string, title: string, publishedAt: string, podcastId: string) => ({
  episodeId: id,
  episodeSlug: id,
  podcastId,
  podcastSlug: podcastId,
  title,
  description: null,
  episodeShortDescription: null,
  publishedAt,
  durationSeconds: null,
  enclosureUrl: `https://example.com/${id}.mp3`,
  hasTranscript: false,
  imageUrl: null,
});

function stubDashboard(latest: unknown) {
  return stubApi((url) => {
    if (url.pathname === '/api/v1/teams/usage/current') return { body: usage };
    if (url.pathname === '/api/v1/teams/usage/daily') return { body: { days: [{ date: '2026-11-02', totalUsage: 40, usageByAlias: {} }], limits: {} } };
    if (url.pathname === '/api/v1/episodes/latest') return { body: latest };
    return undefined;
  });
}

beforeEach(() => setApiKey('pl_key'));
afterEach(() => vi.unstubAllGlobals());

describe('the dashboard', () => {
  it("shows the plan, each meter against the plan's limit and the newest episodes first", async () => {
    // Twelve episodes over two podcasts; the dashboard shows the ten newest across both.
    const dates = Array.from({ length: 12 }, (_, index) => `2026-11-${String(index + 1).padStart(2, '0')}T08:00:00Z`);
    const latest = {
      latestPodcasts: [
        { podcast: podcastSummary('p1', 'Climate Hour'), episodes: dates.filter((_, index) => index % 2 === 0).map((date, index) => episode(`a${index}`, `Climate ${date.slice(8, 10)}`, date, 'p1')) },
        { podcast: podcastSummary('p2', 'Soil Talk'), episodes: dates.filter((_, index) => index % 2 === 1).map((date, index) => episode(`b${index}`, `Soil ${date.slice(8, 10)}`, date, 'p2')) },
      ],
    };
    const calls = stubDashboard(latest);
    renderApp('/app');
    const meters = screen.getByRole('region', { name: 'Usage this period' });
    expect(await within(meters).findByText('business', { selector: '.plan-badge' })).toBeInTheDocument();
    expect(within(meters).getByText(`250 / ${businessSearches.toLocaleString('en-US')} (25%)`)).toBeInTheDocument();
    expect(within(meters).getByText('12 / unlimited')).toBeInTheDocument();
    expect(screen.getByRole('meter', { name: 'Searches' })).toHaveAttribute('max', String(businessSearches));

    const episodes = await screen.findByTestId('latest-episodes');
    const titles = within(episodes).getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);
    expect(titles).toEqual(['Soil 12', 'Climate 11', 'Soil 10', 'Climate 09', 'Soil 08', 'Climate 07', 'Soil 06', 'Climate 05', 'Soil 04', 'Climate 03']);

    await waitFor(() => expect(calls.some((call) => call.url.pathname === '/api/v1/teams/usage/daily')).toBe(true));
    expect(calls.find((call) => call.url.pathname === '/api/v1/teams/usage/daily')!.url.searchParams.get('window')).toBe('30d');
    expect(screen.getByRole('figure', { name: 'Calls per day' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New search' })).toHaveAttribute('href', '/app/search');
  });

  it('says when the catalog has no episodes yet', async () => {
    stubDashboard({ latestPodcasts: [] });
    renderApp('/app');
    expect(await screen.findByText('No episodes yet')).toBeInTheDocument();
  });

  it('asks signed-out visitors to sign in and calls nothing', async () => {
    window.localStorage.clear();
    const calls = stubDashboard({ latestPodcasts: [] });
    renderApp('/app');
    expect(await screen.findByRole('heading', { name: 'Sign in to continue' })).toBeInTheDocument();
    expect(calls.filter((call) => call.url.pathname.startsWith('/api/v1/teams/'))).toHaveLength(0);
  });
});
