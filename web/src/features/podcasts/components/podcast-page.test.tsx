import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
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
// The details the server answers for a show with no YouTube channel on record (its YouTube
// sub-score has weight 0: no data) and a measured social score of 0 (docs/authority-score.md).
const scoreDetails = {
  podcastId: 'p1',
  calculatedAt: '2024-05-01T00:00:00Z',
  finalScore: 60.4,
  subScores: {
    quality: { score: 78.37, weight: 0.4706 },
    social: { score: 0, weight: 0.2941 },
    youtube: { score: 0, weight: 0 },
    engagement: { score: 100, weight: 0.2353 },
  },
  inputs: {},
};
const scored = { ...podcast, authorityScore: { authorityScore: 60.4, qualityScore: 78.37, engagementScore: 100, socialScore: 0, youtubeScore: 0, calculatedAt: '2024-05-01' } };
const projectItem = (slug: string, name: string, status: string) => ({ projectId: `id-${slug}`, slug, name, status, lastUpdated: '2026-11-01' });

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

  it('links every episode to its page, the transcript badge to its transcript, and says when audio cannot load', async () => {
    const transcribed = { ...episode('e1', 'First'), episodeSlug: 'first-episode', hasTranscript: true };
    stubApi((url) => {
      if (url.pathname === '/api/v1/podcasts/climate-hour') return { body: { podcast } };
      if (url.pathname === '/api/v1/podcasts/climate-hour/episodes')
        return { body: { options: {}, totalEpisodes: 2, totalTranscripts: 1, podcastWithEpisodes: { podcast: summary, episodes: [transcribed, episode('e2', 'Second')] } } };
      return undefined;
    });
    renderApp('/podcasts/climate-hour');
    expect(await screen.findByRole('link', { name: 'First' })).toHaveAttribute('href', '/app/podcasts/climate-hour/first-episode');
    expect(screen.getByRole('link', { name: 'Second' })).toHaveAttribute('href', '/app/podcasts/climate-hour/e2');
    expect(screen.getByRole('link', { name: 'Transcript of First' })).toHaveAttribute('href', '/app/podcasts/climate-hour/first-episode#section-transcript');
    const player = screen.getByLabelText('Play Second');
    fireEvent.error(player);
    expect(await screen.findByText('Audio unavailable')).toBeInTheDocument();
    expect(screen.getByLabelText('Play First')).toBeInTheDocument();
  });

  it('says how many linked transcripts could not be fetched', async () => {
    const withMissing = { ...podcast, stats: { ...podcast.stats, transcriptsCount: 1, transcriptsUnavailable: 3 } };
    stubApi((url) => {
      if (url.pathname === '/api/v1/podcasts/climate-hour') return { body: { podcast: withMissing } };
      return undefined;
    });
    renderApp('/podcasts/climate-hour');
    expect(await screen.findByText(/\(3 unavailable\)/)).toBeInTheDocument();
  });

  it('shows each sub-score with what it measures, and one without data as not measured, not 0', async () => {
    stubApi((url) => {
      if (url.pathname === '/api/v1/podcasts/climate-hour') return { body: { podcast: scored } };
      if (url.pathname === '/api/v1/podcasts/authority-score/p1/details') return { body: scoreDetails };
      return undefined;
    });
    renderApp('/podcasts/climate-hour');
    const breakdown = await screen.findByRole('list', { name: 'Authority score breakdown' });
    expect(screen.getByLabelText('Authority score value')).toHaveTextContent('60');
    const part = (key: string) => within(breakdown).getByTestId(`score-part-${key}`);
    expect(within(breakdown).getAllByRole('listitem')).toHaveLength(4);
    expect(part('quality').querySelector('.score-part-value')).toHaveTextContent(/^78$/);
    expect(part('engagement').querySelector('.score-part-value')).toHaveTextContent(/^100$/);
    // A measured 0 is a 0; a sub-score of weight 0 had no data.
    expect(part('social').querySelector('.score-part-value')).toHaveTextContent(/^0$/);
    expect(part('youtube').querySelector('.score-part-value')).toHaveTextContent(/^not measured$/);
    // SPEC §3: each part says what it rests on, in one line.
    expect(part('youtube')).toHaveTextContent(/YouTube channel/);
    expect(part('engagement')).toHaveTextContent(/reviews and ratings, chart positions, Castbox plays/);
    expect(part('social')).toHaveTextContent(/follower counts/);
    expect(part('quality')).toHaveTextContent(/Counts for 47% of this score/);
  });

  it('without the details, says a 0 may be a sub-score that was not measured', async () => {
    stubApi((url) => (url.pathname === '/api/v1/podcasts/climate-hour' ? { body: { podcast: scored } } : undefined));
    renderApp('/podcasts/climate-hour');
    const breakdown = await screen.findByRole('list', { name: 'Authority score breakdown' });
    expect(within(breakdown).getByTestId('score-part-quality').querySelector('.score-part-value')).toHaveTextContent(/^78$/);
    expect(within(breakdown).getByTestId('score-part-youtube').querySelector('.score-part-value')).toHaveTextContent('0 or not measured');
  });

  it('lets a signed-in user add the podcast to one of the active projects', async () => {
    setApiKey('pl_key');
    const calls = stubApi((url, init) => {
      if (url.pathname === '/api/v1/podcasts/climate-hour') return { body: { podcast } };
      if (url.pathname === '/api/v1/projects')
        return { body: { options: {}, projects: [projectItem('old', 'Old pitch', 'ARCHIVED'), projectItem('spring', 'Spring pitch', 'ACTIVE')] } };
      if (url.pathname === '/api/v1/projects/spring/podcasts' && init?.method === 'POST') return { body: { listedPodcast: {} } };
      return undefined;
    });
    renderApp('/podcasts/climate-hour');
    const picker = await screen.findByRole('combobox', { name: 'Project' });
    expect(within(picker).getAllByRole('option').map((option) => option.textContent)).toEqual(['Spring pitch']);
    await userEvent.click(screen.getByRole('button', { name: 'Add to project' }));
    expect(await screen.findByText('Added to Spring pitch')).toBeInTheDocument();
    const post = calls.find((call) => call.init?.method === 'POST')!;
    expect(JSON.parse(String(post.init?.body))).toEqual({ podcastId: 'p1', state: 'prospect' });
  });

  it('offers no project picker to a signed-out visitor', async () => {
    const calls = stubApi((url) => (url.pathname === '/api/v1/podcasts/climate-hour' ? { body: { podcast } } : undefined));
    renderApp('/podcasts/climate-hour');
    expect(await screen.findByRole('heading', { level: 1, name: 'Climate Hour' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add to project' })).toBeNull();
    expect(calls.some((call) => call.url.pathname === '/api/v1/projects')).toBe(false);
  });

  it('a podcast the catalog does not have gets a not-found page with search and the directory, not an error', async () => {
    stubApi((url) =>
      url.pathname === '/api/v1/podcasts/no-such-show'
        ? { status: 404, body: { status: 'NOT_FOUND', data: { message: 'Podcast not found' } } }
        : undefined,
    );
    renderApp('/podcasts/no-such-show');
    expect(await screen.findByText('Podcast not found')).toBeInTheDocument();
    expect(screen.getByText(/This catalog has no podcast at “no-such-show”/)).toBeInTheDocument();
    expect(screen.queryByText('Something went wrong')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Search podcasts' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Browse the directory' })).toHaveAttribute('href', '/podcasts/directory');
    await waitFor(() => expect(document.title).toBe('Podcast not found · Podlens'));
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

  describe('an episode without a transcript', () => {
    const details = { ...episode('e1', 'First'), podcastTitle: 'Climate Hour' };
    const stub = (request: () => { status?: number; body: unknown }) =>
      stubApi((url) => {
        if (url.pathname === '/api/v1/podcasts/climate-hour/episodes')
          return { body: { options: {}, totalEpisodes: 1, totalTranscripts: 0, podcastWithEpisodes: { podcast: summary, episodes: [episode('e1', 'First')] } } };
        if (url.pathname === '/api/v1/episodes/e1/details') return { body: { episode: details } };
        if (url.pathname === '/api/v1/episodes/e1/transcription-request') return request();
        return undefined;
      });

    it('asks the server for a transcript and shows its answer', async () => {
      setApiKey('pl_key');
      const calls = stub(() => ({ body: { message: 'Transcription requested for "First"' } }));
      renderApp('/app/podcasts/climate-hour/e1');
      const button = await screen.findByRole('button', { name: 'Request a transcript' });
      expect(calls.some((call) => call.url.pathname.endsWith('/transcription-request'))).toBe(false);
      await userEvent.click(button);
      const status = await screen.findByRole('status');
      expect(status).toHaveTextContent('Transcription requested for "First"');
      expect(calls.filter((call) => call.url.pathname === '/api/v1/episodes/e1/transcription-request')).toHaveLength(1);
      expect(within(status).getByRole('link', { name: 'Transcriptions' })).toHaveAttribute('href', '/app/transcriptions');
      expect(screen.queryByRole('button', { name: 'Request a transcript' })).toBeNull();
    });

    it("shows the server's refusal", async () => {
      setApiKey('pl_key');
      stub(() => ({ status: 429, body: { status: 'TOO_MANY_REQUESTS', data: { message: 'Transcription request limit reached' } } }));
      renderApp('/app/podcasts/climate-hour/e1');
      await userEvent.click(await screen.findByRole('button', { name: 'Request a transcript' }));
      expect(await screen.findByRole('alert')).toHaveTextContent('Transcription request limit reached');
      expect(screen.getByRole('button', { name: 'Request a transcript' })).toBeEnabled();
    });
  });

  it("saves a podcast to the team's podcasts, and says so when it already is", async () => {
    setApiKey('pl_key');
    let team: unknown[] = [];
    const calls = stubApi((url, init) => {
      if (url.pathname === '/api/v1/podcasts/climate-hour') return { body: { podcast } };
      if (url.pathname === '/api/v1/teams/podcasts') return { body: { teamPodcasts: team, total: team.length, totalFiltered: team.length } };
      if (url.pathname === '/api/v1/teams/podcasts/p1' && init?.method === 'PUT') {
        team = [{ podcastId: 'p1' }];
        return { body: { teamPodcast: { podcastId: 'p1' } } };
      }
      return undefined;
    });
    const view = renderApp('/app/podcasts/climate-hour/reviews');
    await userEvent.click(await screen.findByRole('button', { name: 'Save to team podcasts' }));
    expect(await screen.findByText('Saved to team podcasts')).toBeInTheDocument();
    const put = calls.find((call) => call.init?.method === 'PUT')!;
    expect(put.url.pathname).toBe('/api/v1/teams/podcasts/p1');
    expect(JSON.parse(String(put.init?.body))).toEqual({});
    view.unmount();
    renderApp('/app/podcasts/climate-hour/reviews');
    expect(await screen.findByText('Saved to team podcasts')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save to team podcasts' })).toBeNull();
  });
});
