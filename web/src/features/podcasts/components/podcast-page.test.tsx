import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { setApiKey } from '@/lib/auth-storage';
import { renderApp, stubApi } from '@/test/render';

const summary = { id: 'p1', slug: 'climate-hour', title: 'Climate Hour', author: 'Ana', genres: ['science'], imageUrl: null, language: 'en', lastEpisodePublishedAt: '2024-05-01', titleLatest: 'Climate Hour', authorityScore: null };
const podcast = {
  ...summary,
  appleId: 1,
  description: '<p>Weekly <strong>climate</strong> talk.</p>',
  emails: [],
  explicitRss: false,
  hostNames: ['Ana Lopez'],
  ignore: false,
  isClaimed: false,
  podcastAffiliation: null,
  podcastDirectoryLinks: { apple: 'https://podcasts.apple.com/x' },
  podcastHasGuests: true,
  podcastHasSponsors: null,
  podcastLocations: null,
  primaryContactEmail: null,
  rssFeedUrl: 'https://example.com/feed.xml',
  socialMediaLinks: [],
  spotifyId: null,
  stats: { downloadCount: 0, episodeCount: 2, firstEpisodePublishedAt: null, latestPublishedAt: '2024-05-01', transcriptsCount: 1, updateFrequency: 'weekly' },
  titleLatestCleaned: null,
  transcriptionMode: { mode: 'none' },
  websiteUrl: null,
  authorityScore: { authorityScore: 61, qualityScore: 70, engagementScore: 40, socialScore: 50, youtubeScore: 0, calculatedAt: '2024-05-01' },
};
const episode = (id: string, title: string) => ({ episodeId: id, episodeSlug: id, title, description: 'notes', publishedAt: '2024-05-01', durationSeconds: 1800, enclosureUrl: 'https://example.com/a.mp3', hasTranscript: false, imageUrl: null, podcastId: 'p1', podcastSlug: 'climate-hour', episodeShortDescription: null });

afterEach(() => vi.unstubAllGlobals());

describe('the podcast page', () => {
  it('shows the title, the sanitized description, hosts, the score and the episodes', async () => {
    stubApi((url) => {
      if (url.pathname === '/api/v1/podcasts/climate-hour') return { body: { podcast } };
      if (url.pathname === '/api/v1/podcasts/climate-hour/episodes')
        return { body: { options: {}, totalEpisodes: 2, totalTranscripts: 1, podcastWithEpisodes: { podcast: summary, episodes: [episode('e1', 'First'), episode('e2', 'Second')] } } };
      return undefined;
    });
    renderApp('/podcasts/climate-hour');
    expect(await screen.findByRole('heading', { level: 1, name: 'Climate Hour' })).toBeInTheDocument();
    expect(screen.getByText('climate', { selector: 'strong' })).toBeInTheDocument();
    expect(screen.getByText('Ana Lopez')).toBeInTheDocument();
    expect(screen.getByLabelText('Authority score value')).toHaveTextContent('61');
    expect(await screen.findByText('Second')).toBeInTheDocument();
    // Contacts are locked for signed-out visitors; endpoints the server lacks say so.
    expect(screen.getByText(/available from the individual plan/)).toBeInTheDocument();
    expect(await screen.findByText('Reviews is not available on this server yet')).toBeInTheDocument();
    // Outreach is for signed-in users only.
    expect(screen.queryByRole('link', { name: 'Outreach email' })).toBeNull();
  });

  it('refuses a reserved slug without calling the API', async () => {
    const calls = stubApi(() => undefined);
    renderApp('/podcasts/latest_episodes');
    expect(await screen.findByText('Podcast not found')).toBeInTheDocument();
    expect(calls.filter((call) => call.url.pathname.startsWith('/api/v1/podcasts/'))).toHaveLength(0);
  });

  it('shows only the chosen section on an app sub-page', async () => {
    setApiKey('pl_key');
    const calls = stubApi((url) => {
      if (url.pathname === '/api/v1/podcasts/climate-hour') return { body: { podcast } };
      if (url.pathname === '/api/v1/podcasts/climate-hour/charts/presence')
        return { body: { presence: { window: { startDate: '2026-01-01', endDate: '2026-01-01', weeks: [] }, latestChartDate: null, homeCountry: null, summary: { onNow: 0, markets: 0, onNowByPlatform: { apple: 0, spotify: 0 }, droppedOff30d: 0, older: 0, top10Now: 0 }, charts: [] } } };
      return undefined;
    });
    renderApp('/app/podcasts/climate-hour/charts');
    expect(await screen.findByRole('heading', { level: 2, name: 'Chart history' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'About this podcast' })).toBeNull();
    expect(within(screen.getByRole('navigation', { name: 'Podcast' })).getByRole('link', { name: 'Charts' })).toHaveAttribute('aria-current', 'page');
    expect(calls.some((call) => call.url.pathname === '/api/v1/podcasts/climate-hour/episodes')).toBe(false);
    // The outreach action names the podcast by its id.
    expect(screen.getByRole('link', { name: 'Outreach email' })).toHaveAttribute('href', '/app/outreach/new?podcast-id=p1');
  });
});
