import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';

import { setApiKey } from '@/lib/auth-storage';
import { podcastHit } from '@/test/hits';
import { renderApp, stubApi } from '@/test/render';

import { formStateToParam, newTerm, EMPTY_FILTERS } from '../search-form-state';

const hit = {
  episodeId: 'e1',
  episodeRssTitle: 'Carbon pricing explained',
  episodeSlug: 'carbon-pricing-explained',
  episodeRssPublishedAt: '2024-05-01T00:00:00Z',
  episodeHasTranscript: true,
  podcastId: 'p1',
  podcastSlug: 'climate-hour',
  podcastRssTitle: 'Climate Hour',
  podcastImageUrl: null,
  episodeImageUrl: null,
  matchSnippet: 'we talked about a <em>carbon</em> tax &amp; dividends',
};

afterEach(() => vi.unstubAllGlobals());

describe('the search screen', () => {
  it('posts the terms, shows highlighted transcript snippets, and pages on the cursor', async () => {
    const calls = stubApi((url, init) => {
      if (url.pathname !== '/api/v1/search/episodes') return undefined;
      const body = JSON.parse(String(init?.body)) as { cursor?: string };
      return {
        body: {
          searchMode: 'episodes',
          searchId: 's1',
          searchOptions: {},
          result: { total: { value: 2, relation: 'eq' }, maxScore: 1, hitsReturned: 1, hits: [body.cursor ? { ...hit, episodeId: 'e2', episodeRssTitle: 'Second page' } : hit] },
          cursor: body.cursor ? null : 'next-1',
        },
      };
    });
    renderApp('/app/search');
    fireEvent.change(screen.getByLabelText('Search term 1'), { target: { value: 'carbon' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Transcript' }));
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    const snippet = await screen.findByTestId('transcript-snippet');
    // The episode opens its page; its transcript badge opens the transcript there.
    expect(screen.getByRole('link', { name: 'Carbon pricing explained' })).toHaveAttribute('href', '/app/podcasts/climate-hour/carbon-pricing-explained');
    expect(screen.getByRole('link', { name: 'Transcript of Carbon pricing explained' })).toHaveAttribute(
      'href',
      '/app/podcasts/climate-hour/carbon-pricing-explained#section-transcript',
    );
    expect(snippet.querySelector('mark')?.textContent).toBe('carbon');
    expect(snippet.textContent).toContain('tax & dividends');
    const searches = calls.filter((call) => call.url.pathname === '/api/v1/search/episodes');
    const first = JSON.parse(String(searches[0].init?.body)) as Record<string, unknown>;
    expect(first.searchTerms).toEqual([
      { searchTerm: 'carbon', searchType: 'text', searchTargets: ['podcast-title', 'podcast-description', 'transcript'], searchTermOptions: { matchMode: 'optional' } },
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Load more results' }));
    expect(await screen.findByText('Second page')).toBeInTheDocument();
    await waitFor(() => expect(JSON.parse(String(calls.at(-1)!.init?.body)).cursor).toBe('next-1'));
    expect(screen.queryByRole('button', { name: 'Load more results' })).toBeNull();
  });

  it('shows a signed-out visitor over the public quota the limit and a sign-up prompt, not an error', async () => {
    const message = 'You have reached the limit of 10 searches per day for signed-out visitors';
    stubApi(() => ({ status: 429, body: { status: 'TOO_MANY_REQUESTS', data: { message } } }));
    renderApp('/app/search?q=news');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Search limit reached');
    expect(alert).toHaveTextContent(message);
    expect(screen.getByRole('link', { name: 'Create a free account' })).toHaveAttribute('href', '/sign-up');
    expect(screen.getByRole('link', { name: 'sign in' })).toHaveAttribute('href', '/sign-in');
    expect(screen.queryByText('Something went wrong')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('shows a signed-in user over the limit where to get more searches', async () => {
    setApiKey('pl_key');
    stubApi((url) =>
      url.pathname.startsWith('/api/v1/search/')
        ? { status: 429, body: { status: 'TOO_MANY_REQUESTS', data: { message: 'Search limit reached for your plan' } } }
        : undefined,
    );
    renderApp('/app/search?q=news');
    expect(await screen.findByText('Search limit reached')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Compare plans' })).toHaveAttribute('href', '/pricing');
    expect(screen.queryByRole('link', { name: 'Create a free account' })).toBeNull();
  });

  it('restores a search from its link: terms, filters and sort, and runs it', async () => {
    const link = formStateToParam({
      terms: [{ ...newTerm('carbon tax', ['podcast-title', 'transcript']), matchMode: 'must' }],
      filters: { ...EMPTY_FILTERS, languages: 'en' },
      sortField: 'title',
      sortDirection: 'asc',
    });
    const calls = stubApi((url) =>
      url.pathname === '/api/v1/search/episodes'
        ? { body: { searchMode: 'episodes', searchId: 's1', searchOptions: {}, result: { total: { value: 1, relation: 'eq' }, maxScore: 1, hitsReturned: 1, hits: [hit] }, cursor: null } }
        : undefined,
    );
    renderApp(`/app/search?s=${encodeURIComponent(link)}`);
    expect(await screen.findByText('Carbon pricing explained')).toBeInTheDocument();
    expect(screen.getByLabelText('Search term 1')).toHaveValue('carbon tax');
    const body = JSON.parse(String(calls.find((call) => call.url.pathname === '/api/v1/search/episodes')!.init?.body)) as Record<string, unknown>;
    expect(body.searchTerms).toEqual([
      { searchTerm: 'carbon tax', searchType: 'text', searchTargets: ['podcast-title', 'transcript'], searchTermOptions: { matchMode: 'must' } },
    ]);
    expect(body.languages).toEqual(['en']);
    expect(body.sortOrder).toEqual([{ field: 'title', direction: 'asc' }]);
  });

  it('re-runs the search when the sort changes', async () => {
    const calls = stubApi((url) =>
      url.pathname === '/api/v1/search/podcasts'
        ? { body: { searchMode: 'podcasts', searchId: 's1', searchOptions: {}, result: { total: { value: 0, relation: 'eq' }, maxScore: 0, hitsReturned: 0, hits: [] }, cursor: null } }
        : undefined,
    );
    renderApp('/app/search?q=climate');
    await waitFor(() => expect(calls.filter((call) => call.url.pathname === '/api/v1/search/podcasts')).toHaveLength(1));
    fireEvent.change(screen.getByRole('combobox', { name: 'Sort by' }), { target: { value: 'recentActivity' } });
    await waitFor(() => {
      const searches = calls.filter((call) => call.url.pathname === '/api/v1/search/podcasts');
      expect(JSON.parse(String(searches.at(-1)!.init?.body)).sortOrder).toEqual([{ field: 'recentActivity', direction: 'desc' }]);
    });
  });

  it('shows the server refusal message', async () => {
    stubApi(() => ({ status: 400, body: { status: 'BAD_REQUEST', data: { message: 'Search filter "languages" is not available for your plan.' } } }));
    renderApp('/app/search?q=news');
    expect(await screen.findByRole('alert')).toHaveTextContent('Search filter "languages" is not available for your plan.');
  });

  it('says why ticking "Has a transcript" makes it an episode search', async () => {
    setApiKey('pl_free');
    stubApi((url) =>
      url.pathname === '/api/v1/teams/usage/current'
        ? { body: { plan: 'free', aliases: [], featureFlags: {}, periodStart: '2026-11-01', periodEnd: '2026-11-30', totalUsed: 0 } }
        : undefined,
    );
    renderApp('/app/search');
    fireEvent.click(await screen.findByRole('button', { name: 'Filters' }));
    expect(screen.getByText(/^Searching podcasts/)).toHaveTextContent(/^Searching podcasts$/);
    const transcript = await screen.findByRole('checkbox', { name: 'Has a transcript' });
    await waitFor(() => expect(transcript).toBeEnabled());
    fireEvent.click(transcript);
    expect(screen.getByText(/^Searching episodes/)).toHaveTextContent('Searching episodes (“Has a transcript” is a filter on episodes)');
    fireEvent.click(transcript);
    expect(screen.getByText(/^Searching podcasts/)).toHaveTextContent(/^Searching podcasts$/);
  });

  it('locks filters the signed-out plan lacks, with an upgrade hint', async () => {
    stubApi(() => undefined);
    renderApp('/app/search');
    fireEvent.click(screen.getByRole('button', { name: 'Filters' }));
    expect(screen.getByRole('textbox', { name: 'Countries' })).toBeDisabled();
    expect(screen.getByRole('textbox', { name: 'Languages' })).toBeEnabled();
    expect(document.querySelector('[data-filter="podcastCountries"] .upgrade-hint')).not.toBeNull();
  });

  it('offers every filter of the free plan, locks the paid-only ones with a hint, and sends what is set', async () => {
    setApiKey('pl_free');
    const calls = stubApi((url) => {
      if (url.pathname === '/api/v1/teams/usage/current') return { body: { plan: 'free', aliases: [], featureFlags: {}, periodStart: '2026-11-01', periodEnd: '2026-11-30', totalUsed: 0 } };
      if (url.pathname === '/api/v1/search/podcasts')
        return { body: { searchMode: 'podcasts', searchId: 's1', searchOptions: {}, result: { total: { value: 0, relation: 'eq' }, maxScore: 0, hitsReturned: 0, hits: [] }, cursor: null } };
      return undefined;
    });
    renderApp('/app/search');
    await waitFor(() => expect(calls.some((call) => call.url.pathname === '/api/v1/teams/usage/current')).toBe(true));
    // Signed in, the page reads the user's preferences first (this server has none).
    fireEvent.click(await screen.findByRole('button', { name: 'Filters' }));
    // SPEC §6: free adds Castbox and the rating filters to the public ones (founded since among them).
    const castboxPlays = await screen.findByRole('spinbutton', { name: 'Min Castbox plays' });
    await waitFor(() => expect(castboxPlays).toBeEnabled());
    for (const name of ['Min Castbox subscribers', 'Min Apple ratings count', 'Min Spotify ratings count', 'Min episodes']) {
      expect(screen.getByRole('spinbutton', { name })).toBeEnabled();
    }
    expect(screen.getByRole('combobox', { name: 'Founded' })).toBeEnabled();
    // SPEC §6: contacts, countries, primary contact, socials and guests are paid only.
    const paidOnly = ['podcastCountries', 'hasPrimaryContact', 'hasSocials', 'podcastHasGuests'];
    for (const name of paidOnly) {
      const hint = document.querySelector(`[data-filter="${name}"] .upgrade-hint`);
      expect(hint, name).not.toBeNull();
      expect(hint).toHaveTextContent(/Upgrade/);
      expect(hint!.querySelector('a')).toHaveAttribute('href', '/pricing');
    }
    expect(screen.getByRole('button', { name: /Social profiles/ })).toBeDisabled();
    // SPEC §6: only admin may set the page size.
    expect(screen.queryByRole('spinbutton', { name: 'Page size' })).toBeNull();
    fireEvent.change(screen.getByLabelText('Search term 1'), { target: { value: 'gardening' } });
    fireEvent.change(castboxPlays, { target: { value: '500' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Founded' }), { target: { value: 'custom' } });
    fireEvent.change(screen.getByLabelText('Founded: date'), { target: { value: '2020-01-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(calls.some((call) => call.url.pathname === '/api/v1/search/podcasts')).toBe(true));
    const body = JSON.parse(String(calls.find((call) => call.url.pathname === '/api/v1/search/podcasts')!.init?.body)) as Record<string, unknown>;
    expect(body.minCastboxPlays).toBe(500);
    expect(body.foundedSince).toEqual({ type: 'custom', date: '2020-01-01' });
    expect(await screen.findByText('No results')).toBeInTheDocument();
  });

  // Language and genre were free-text boxes: one had to guess `en` or `business`.
  it('picks languages and genres from the catalog\'s own values with their counts, and sends them', async () => {
    const facets = {
      languages: [{ value: 'en', count: 1234 }, { value: 'fr', count: 56 }],
      genres: [{ value: 'business', count: 300 }, { value: 'society & culture', count: 120 }, { value: 'comedy', count: 80 }],
    };
    const calls = stubApi((url) => {
      if (url.pathname === '/api/v1/search/facets') return { body: facets };
      if (url.pathname === '/api/v1/search/podcasts')
        return { body: { searchMode: 'podcasts', searchId: 's1', searchOptions: {}, result: { total: { value: 0, relation: 'eq' }, maxScore: 0, hitsReturned: 0, hits: [] }, cursor: null } };
      return undefined;
    });
    renderApp('/app/search');
    fireEvent.click(await screen.findByRole('button', { name: 'Filters' }));
    const languages = await screen.findByRole('combobox', { name: 'Languages' });
    const offered = within(languages).getAllByRole('option').map((option) => option.textContent);
    expect(offered).toEqual(['Any', 'English (en) · 1,234', 'French (fr) · 56']);
    const add = (name: string, value: string) => {
      fireEvent.change(screen.getByRole('combobox', { name }), { target: { value } });
      fireEvent.click(screen.getByRole('button', { name: `Add to ${name}` }));
    };
    // Choosing in the list adds nothing until "Add" (arrow keys move through the list).
    fireEvent.change(languages, { target: { value: 'fr' } });
    expect(screen.queryByRole('list', { name: 'Languages chosen' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Add to Languages' }));
    add('Languages', 'en');
    expect(within(screen.getByRole('list', { name: 'Languages chosen' })).getAllByRole('listitem').map((chip) => chip.textContent)).toEqual([
      'French (fr)×',
      'English (en)×',
    ]);
    // A chosen value is not offered again.
    expect(within(screen.getByRole('combobox', { name: 'Languages' })).getAllByRole('option').map((option) => option.getAttribute('value'))).toEqual(['']);
    fireEvent.click(screen.getByRole('button', { name: 'Remove French (fr)' }));
    add('Genres to include', 'society & culture');
    add('Genres to exclude', 'comedy');
    // Ids are folded away for the API users who need them.
    expect(screen.getByText('Podcast and episode ids').closest('details')).not.toHaveAttribute('open');
    fireEvent.change(screen.getByLabelText('Search term 1'), { target: { value: 'startups' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(calls.some((call) => call.url.pathname === '/api/v1/search/podcasts')).toBe(true));
    const body = JSON.parse(String(calls.find((call) => call.url.pathname === '/api/v1/search/podcasts')!.init?.body)) as Record<string, unknown>;
    expect(body.languages).toEqual(['en']);
    expect(body.includeItunesGenres).toEqual(['society & culture']);
    expect(body.excludeItunesGenres).toEqual(['comedy']);
  });

  it('falls back to typing the language when the catalog\'s values cannot be read', async () => {
    stubApi(() => undefined);
    renderApp('/app/search');
    fireEvent.click(await screen.findByRole('button', { name: 'Filters' }));
    expect(await screen.findByRole('textbox', { name: 'Languages' })).toBeEnabled();
  });

  describe('with podcasts selected', () => {
    const listed = { podcastAuthorityScoreTotal: 40.4, rssCategories: ['News'], podcastEmails: ['host@example.com'] };
    const hits = [podcastHit('p1', 'Climate Hour', listed), podcastHit('p2', 'Night Garden', listed), podcastHit('p3', 'Moth Hour', listed)];
    const project = (slug: string, name: string, status: string) => ({ projectId: `id-${slug}`, slug, name, status, lastUpdated: '2026-11-01' });

    function stubSearch() {
      return stubApi((url, init) => {
        if (url.pathname === '/api/v1/search/podcasts')
          return { body: { searchMode: 'podcasts', searchId: 's1', searchOptions: {}, result: { total: { value: 3, relation: 'eq' }, maxScore: 1, hitsReturned: 3, hits }, cursor: null } };
        if (url.pathname === '/api/v1/projects') return { body: { options: {}, projects: [project('old', 'Old pitch', 'ARCHIVED'), project('spring', 'Spring pitch', 'ACTIVE')] } };
        if (url.pathname === '/api/v1/projects/spring/podcasts' && init?.method === 'POST') {
          const { podcastId } = JSON.parse(String(init.body)) as { podcastId: string };
          // The server's answers: added, already listed (400), the plan's cap (403).
          if (podcastId === 'p2') return { status: 400, body: { status: 'BAD_REQUEST', data: { message: 'Podcast p2 is already listed in this project' } } };
          if (podcastId === 'p3') return { status: 403, body: { status: 'FORBIDDEN', data: { message: 'Podcast limit reached' } } };
          return { body: { listedPodcast: {} } };
        }
        return undefined;
      });
    }

    it('adds them to an active project in one step, one call each, and says how each went', async () => {
      setApiKey('pl_key');
      const calls = stubSearch();
      renderApp('/app/search?q=climate');
      await userEvent.click(await screen.findByRole('checkbox', { name: 'Select Climate Hour' }));
      await userEvent.click(screen.getByRole('checkbox', { name: 'Select Night Garden' }));
      const bar = screen.getByRole('region', { name: 'Selected podcasts' });
      expect(bar).toHaveTextContent('2 selected');
      const selectAll = screen.getByRole('checkbox', { name: 'Select all 3 shown' }) as HTMLInputElement;
      expect(selectAll.indeterminate).toBe(true);
      await userEvent.click(selectAll);
      expect(bar).toHaveTextContent('3 selected');
      const picker = await within(bar).findByRole('combobox', { name: 'Project' });
      expect(within(picker).getAllByRole('option').map((option) => option.textContent)).toEqual(['Spring pitch']);
      await userEvent.click(within(bar).getByRole('button', { name: 'Add 3 to project' }));
      await waitFor(() => expect(within(bar).getByRole('status')).toHaveTextContent('Added 1 to Spring pitch · 1 already there · 1 failed (Podcast limit reached)'));
      const posts = calls.filter((call) => call.init?.method === 'POST' && call.url.pathname === '/api/v1/projects/spring/podcasts');
      expect(posts.map((call) => JSON.parse(String(call.init?.body)))).toEqual(hits.map((item) => ({ podcastId: item.podcastId, state: 'prospect' })));
      await userEvent.click(within(bar).getByRole('button', { name: 'Clear selection' }));
      expect(screen.queryByRole('region', { name: 'Selected podcasts' })).toBeNull();
      expect(screen.getAllByRole('checkbox', { name: /^Select / }).filter((box) => (box as HTMLInputElement).checked)).toHaveLength(0);
    });

    // The export was built in the browser: it ignored the plan's exports (none below
    // business, SPEC §9) and was never counted. It is the server's export now.
    it('exports the selected ones through the server on a plan with exports, in the table view too', async () => {
      setApiKey('pl_business');
      const serverCsv = 'Title,Podcast ID\r\nNight Garden,p2\r\nMoth Hour,p3\r\n';
      const calls = stubApi((url, init) => {
        if (url.pathname === '/api/v1/teams/usage/current')
          return { body: { plan: 'business', aliases: [], featureFlags: {}, periodStart: '2026-11-01', periodEnd: '2026-11-30', totalUsed: 0 } };
        if (url.pathname === '/api/v1/export/podcasts' && init?.method === 'POST') return { body: serverCsv };
        if (url.pathname === '/api/v1/search/podcasts')
          return { body: { searchMode: 'podcasts', searchId: 's1', searchOptions: {}, result: { total: { value: 3, relation: 'eq' }, maxScore: 1, hitsReturned: 3, hits }, cursor: null } };
        if (url.pathname === '/api/v1/projects') return { body: { options: {}, projects: [] } };
        return undefined;
      });
      const blobs: Blob[] = [];
      // Object URLs that keep the file, for this test only.
      const saved = ['createObjectURL', 'revokeObjectURL'].map((name) => [name, Object.getOwnPropertyDescriptor(URL, name)] as const);
      Object.defineProperty(URL, 'createObjectURL', { configurable: true, writable: true, value: (blob: Blob) => (blobs.push(blob), 'blob:csv') });
      Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, writable: true, value: () => undefined });
      onTestFinished(() => {
        for (const [name, descriptor] of saved) {
          if (descriptor) Object.defineProperty(URL, name, descriptor);
          else Reflect.deleteProperty(URL, name);
        }
      });
      const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
      renderApp('/app/search?q=climate&view=table');
      await userEvent.click(await screen.findByRole('checkbox', { name: 'Select Night Garden' }));
      await userEvent.click(screen.getByRole('checkbox', { name: 'Select Moth Hour' }));
      const bar = screen.getByRole('region', { name: 'Selected podcasts' });
      await userEvent.click(await within(bar).findByRole('button', { name: 'Export 2' }));
      await waitFor(() => expect(within(bar).getByRole('status')).toHaveTextContent('Exported 2 to CSV'));
      const posted = calls.filter((call) => call.url.pathname === '/api/v1/export/podcasts');
      expect(posted.map((call) => JSON.parse(String(call.init?.body)))).toEqual([{ searchHistoryId: 's1', podcastIds: ['p2', 'p3'], format: 'csv' }]);
      expect(click).toHaveBeenCalledTimes(1);
      expect((click.mock.contexts[0] as HTMLAnchorElement).download).toMatch(/^podcasts-\d{4}-\d{2}-\d{2}\.csv$/);
      // The file is the server's answer as it came.
      expect(await blobs[0].text()).toContain('Night Garden,p2');
      click.mockRestore();
    });

    it('shows the export locked to a signed-out visitor, with where to get it', async () => {
      stubSearch();
      renderApp('/app/search?q=climate');
      await userEvent.click(await screen.findByRole('checkbox', { name: 'Select Night Garden' }));
      const bar = screen.getByRole('region', { name: 'Selected podcasts' });
      expect(within(bar).queryByRole('button', { name: /Export/ })).toBeNull();
      expect(within(bar).queryByRole('button', { name: /to project/ })).toBeNull();
      expect(within(bar).getByRole('link', { name: 'sign up' })).toHaveAttribute('href', '/sign-up');
    });
  });
});
