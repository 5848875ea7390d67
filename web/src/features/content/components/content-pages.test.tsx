import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { renderApp, stubApi } from '@/test/render';
import { specRoutes } from '@/test/spec';

afterEach(() => vi.unstubAllGlobals());

const headingsOf = (level: number) => screen.getAllByRole('heading', { level }).map((heading) => heading.textContent);

describe('the content pages', () => {
  it.each([
    ['/about', 'About Podlens', [], 'About Podlens · Podlens'],
    ['/privacy', 'Privacy policy', ['What we store', 'In your browser', 'Your rights'], 'Privacy policy · Podlens'],
    ['/terms', 'Terms of service', [], 'Terms of service · Podlens'],
  ])('%s renders its headings without calling the API', async (route, title, sections, documentTitle) => {
    // SPEC §2 lists the page as a public route.
    expect(specRoutes()).toContain(route);
    const calls = stubApi(() => undefined);
    renderApp(route);
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(headingsOf(1)).toEqual([title]);
    if (sections.length > 0) expect(headingsOf(2)).toEqual(sections);
    await waitFor(() => expect(document.title).toBe(documentTitle));
    expect(screen.queryByText('Page not found')).toBeNull();
    expect(calls.filter((call) => call.url.pathname.startsWith('/api/'))).toHaveLength(0);
  });

  it('the about page points visitors to an account and to pricing', async () => {
    stubApi(() => undefined);
    renderApp('/about');
    expect(await screen.findByRole('link', { name: 'Create a free account' })).toHaveAttribute('href', '/sign-up');
    expect(screen.getByRole('link', { name: 'See pricing' })).toHaveAttribute('href', '/pricing');
  });

  it('the authority score page explains each sub-score and shows real examples, a sub-score without data as not measured', async () => {
    expect(specRoutes()).toContain('/podcast-authority-score');
    const scored = { authorityScore: 55.2, calculatedAt: '2026-11-01T00:00:00Z', engagementScore: 61, qualityScore: 70.4, socialScore: 20, youtubeScore: 0 };
    const summary = (id: string, title: string, authorityScore: typeof scored | null = scored) => ({ id, slug: `slug-${id}`, title, titleLatest: title, author: null, authorityScore, genres: [], imageUrl: null, language: 'en', lastEpisodePublishedAt: null });
    const details = (id: string, youtubeWeight: number) => ({
      podcastId: id,
      calculatedAt: '2026-11-01T00:00:00Z',
      finalScore: 55.2,
      subScores: {
        quality: { score: 70.4, weight: 0.4 },
        social: { score: 20, weight: 0.25 },
        youtube: { score: 0, weight: youtubeWeight },
        engagement: { score: 61, weight: 0.2 },
      },
      inputs: {},
    });
    const calls = stubApi((url) => {
      if (url.pathname === '/api/v1/podcasts/latest') return { body: { podcasts: [summary('a', 'Unscored Show', null), summary('b', 'Night Garden'), summary('c', 'Moth Hour')] } };
      // The first has no score yet: the server would answer 404, and it is no example.
      if (url.pathname === '/api/v1/podcasts/authority-score/a/details') return { status: 404, body: { status: 'NOT_FOUND', data: { message: 'Authority score not found: a' } } };
      if (url.pathname === '/api/v1/podcasts/authority-score/b/details') return { body: details('b', 0) };
      if (url.pathname === '/api/v1/podcasts/authority-score/c/details') return { body: details('c', 0.15) };
      return undefined;
    });
    renderApp('/podcast-authority-score');
    // SPEC §3: quality, social, YouTube and engagement sub-scores.
    for (const name of ['Quality', 'Social', 'YouTube', 'Engagement']) expect(screen.getByText(name, { selector: 'dt' })).toBeInTheDocument();
    const examples = await screen.findByRole('region', { name: 'Examples from the catalog' });
    expect(within(examples).getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)).toEqual(['Night Garden', 'Moth Hour']);
    expect(within(examples).getByLabelText('Authority score of Night Garden')).toHaveTextContent('55');
    const youtube = (title: string) =>
      within(within(examples).getByRole('list', { name: `Authority score breakdown of ${title}` })).getByTestId('score-part-youtube').querySelector('.score-part-value');
    expect(youtube('Night Garden')).toHaveTextContent(/^not measured$/);
    expect(youtube('Moth Hour')).toHaveTextContent(/^0$/);
    // A show the listing says has no score is never asked for its breakdown (no 404).
    expect(calls.some((call) => call.url.pathname === '/api/v1/podcasts/authority-score/a/details')).toBe(false);
  });

  it('an unknown address says so and offers search and the directory', async () => {
    stubApi(() => undefined);
    renderApp('/no-such-page');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    const ways = screen.getByRole('navigation', { name: 'Where to go from here' });
    expect(within(ways).getByRole('link', { name: 'Search podcasts' })).toHaveAttribute('href', '/');
    expect(within(ways).getByRole('link', { name: 'Browse the directory' })).toHaveAttribute('href', '/podcasts/directory');
  });
});
