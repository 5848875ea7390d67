import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { setApiKey } from '@/lib/auth-storage';
import { renderApp, stubApi } from '@/test/render';

afterEach(() => vi.unstubAllGlobals());

type Body = Record<string, unknown> & { searchTerms?: { searchTerm: string; searchTargets: string[]; searchTermOptions: Record<string, unknown> }[] };
type Autocomplete = { podcasts: { title: string }[]; words: string[] };

const nothingFound = (mode: 'podcasts' | 'episodes') => ({
  body: { searchMode: mode, searchId: 's0', searchOptions: {}, result: { total: { value: 0, relation: 'eq' }, maxScore: 0, hitsReturned: 0, hits: [] }, cursor: null },
});

/** A server where every search finds nothing and autocomplete answers from `words`. */
function stubNothingFound(autocomplete: Record<string, Autocomplete> = {}) {
  const calls = stubApi((url) => {
    if (url.pathname === '/api/v1/search/podcasts') return nothingFound('podcasts');
    if (url.pathname === '/api/v1/search/episodes') return nothingFound('episodes');
    if (url.pathname === '/api/v1/autocomplete/podcasts') return { body: autocomplete[url.searchParams.get('query') ?? ''] ?? { podcasts: [], words: [] } };
    return undefined;
  });
  const searches = () =>
    calls
      .filter((call) => call.url.pathname.startsWith('/api/v1/search/') && call.init?.method === 'POST')
      .map((call) => ({ path: call.url.pathname, body: JSON.parse(String(call.init?.body)) as Body }));
  const lookups = () => calls.filter((call) => call.url.pathname === '/api/v1/autocomplete/podcasts').map((call) => call.url.searchParams.get('query'));
  return { searches, lookups };
}

/** The `s` parameter of a search link, written out as the page writes it (terms, filters, sort). */
const link = (terms: { term: string; targets?: string[]; matchMode?: string; phraseMatch?: boolean }[], filters: Record<string, unknown> = {}) =>
  `/app/search?s=${encodeURIComponent(
    JSON.stringify({
      terms: terms.map((term) => ({ targets: ['podcast-title', 'podcast-description'], matchMode: 'optional', phraseMatch: false, ...term })),
      filters,
      sort: ['relevance', 'desc'],
    }),
  )}`;

async function emptyState() {
  const title = await screen.findByRole('heading', { name: 'No results' });
  return title.closest('section') as HTMLElement;
}

/** Clicks a suggestion and returns the search it sent. */
async function follow(name: string | RegExp, searches: () => { path: string; body: Body }[]) {
  const before = searches().length;
  await userEvent.click(await screen.findByRole('button', { name }));
  await waitFor(() => expect(searches().length).toBe(before + 1));
  return searches().at(-1)!;
}

describe('a search that finds nothing', () => {
  it('says so plainly', async () => {
    stubNothingFound();
    renderApp(link([{ term: 'gardening' }]));
    const state = await emptyState();
    expect(state).toHaveTextContent('No results');
    expect(state).toHaveTextContent('Nothing was found for “gardening”.');
  });

  it('offers the search without its filters, and without each one when there are several', async () => {
    const { searches } = stubNothingFound();
    const { router } = renderApp(link([{ term: 'gardening' }], { languages: 'de', explicit: 'clean' }));
    const state = await emptyState();
    expect(state).toHaveTextContent('with 2 filters');
    expect(searches()[0].body).toMatchObject({ languages: ['de'], explicit: 'clean' });

    const withoutLanguage = await follow('Search again without Languages: de', searches);
    expect(withoutLanguage.body.explicit).toBe('clean');
    expect(withoutLanguage.body).not.toHaveProperty('languages');
    expect(withoutLanguage.body.searchTerms).toEqual(searches()[0].body.searchTerms);

    // Back to the first search, then drop every filter.
    await router.navigate(-1);
    await emptyState();
    const unfiltered = await follow('Search again without filters', searches);
    expect(unfiltered.path).toBe('/api/v1/search/podcasts');
    expect(unfiltered.body).not.toHaveProperty('languages');
    expect(unfiltered.body).not.toHaveProperty('explicit');
    expect(unfiltered.body.searchTerms).toEqual([
      { searchTerm: 'gardening', searchType: 'text', searchTargets: ['podcast-title', 'podcast-description'], searchTermOptions: { matchMode: 'optional' } },
    ]);
    // The form shows the search it ran (its filters still shown, as they were).
    expect(screen.getByRole('textbox', { name: 'Languages' })).toHaveValue('');
    expect(screen.getByRole('combobox', { name: 'Explicit content' })).toHaveValue('');
  });

  it('names a single filter and offers the search without it, with no chips', async () => {
    const { searches } = stubNothingFound();
    renderApp(link([{ term: 'gardening' }], { languages: 'de' }));
    expect(await emptyState()).toHaveTextContent('Nothing was found for “gardening” with the filter Languages: de.');
    expect(screen.queryByRole('button', { name: /^Search again without Languages/ })).toBeNull();
    const sent = await follow('Search again without filters', searches);
    expect(sent.body).not.toHaveProperty('languages');
  });

  it('offers "any of the words" for a must-match term of several words', async () => {
    const { searches } = stubNothingFound();
    renderApp(link([{ term: 'carbon tax', matchMode: 'must' }]));
    await emptyState();
    const sent = await follow('Match any of the words', searches);
    expect(sent.body.searchTerms).toEqual([
      { searchTerm: 'carbon tax', searchType: 'text', searchTargets: ['podcast-title', 'podcast-description'], searchTermOptions: { matchMode: 'optional' } },
    ]);
  });

  it('offers "any of the words" when several terms must all match, leaving a must-not term alone', async () => {
    const { searches } = stubNothingFound();
    renderApp(link([{ term: 'carbon', matchMode: 'must' }, { term: 'dividend', matchMode: 'must' }, { term: 'crypto', matchMode: 'not' }]));
    await emptyState();
    const sent = await follow('Match any of the words', searches);
    expect(sent.body.searchTerms!.map((term) => [term.searchTerm, term.searchTermOptions.matchMode])).toEqual([
      ['carbon', 'optional'],
      ['dividend', 'optional'],
      ['crypto', 'not'],
    ]);
  });

  it('does not offer "any of the words" for one must-match word', async () => {
    stubNothingFound();
    renderApp(link([{ term: 'carbon', matchMode: 'must' }]));
    await emptyState();
    expect(screen.queryByRole('button', { name: 'Match any of the words' })).toBeNull();
  });

  it('offers the words instead of the exact phrase', async () => {
    const { searches } = stubNothingFound();
    renderApp(link([{ term: 'regenerative farming', phraseMatch: true }]));
    await emptyState();
    expect(searches()[0].body.searchTerms![0].searchTermOptions).toEqual({ matchMode: 'optional', phraseMatch: true });
    const sent = await follow('Search the words, not the exact phrase', searches);
    expect(sent.body.searchTerms![0].searchTerm).toBe('regenerative farming');
    expect(sent.body.searchTerms![0].searchTermOptions.matchMode).toBe('optional');
    expect(sent.body.searchTerms![0].searchTermOptions.phraseMatch ?? false).toBe(false);
  });

  it('asks autocomplete about each word and offers the search spelt as the index knows it, filters kept', async () => {
    const { searches, lookups } = stubNothingFound({
      gardning: { podcasts: [{ title: 'Gardening Weekly' }, { title: 'The Garden Hour' }], words: [] },
      tipss: { podcasts: [{ title: 'Tips for Growers' }], words: [] },
    });
    renderApp(link([{ term: 'gardning tipss' }], { languages: 'en' }));
    await emptyState();
    await waitFor(() => expect(lookups().sort()).toEqual(['gardning', 'tipss']));
    const sent = await follow('Did you mean “gardening tips”?', searches);
    expect(sent.path).toBe('/api/v1/search/podcasts');
    expect(sent.body.searchTerms![0].searchTerm).toBe('gardening tips');
    expect(sent.body.languages).toEqual(['en']);
    expect(screen.getByLabelText('Search term 1')).toHaveValue('gardening tips');
  });

  it('takes a completion of a word the index does not know', async () => {
    const { searches } = stubNothingFound({ beekeep: { podcasts: [], words: ['beekeeping', 'beekeepers'] } });
    renderApp(link([{ term: 'beekeep' }]));
    await emptyState();
    const sent = await follow('Did you mean “beekeeping”?', searches);
    expect(sent.body.searchTerms![0].searchTerm).toBe('beekeeping');
  });

  it('offers no spelling that is what was typed, whatever its case', async () => {
    const { lookups } = stubNothingFound({
      gardening: { podcasts: [{ title: 'Gardening Weekly' }], words: ['gardening', 'gardeners'] },
      tips: { podcasts: [{ title: 'Tips' }], words: ['tips', 'tipsy'] },
    });
    renderApp(link([{ term: 'Gardening TIPS' }]));
    await emptyState();
    await waitFor(() => expect(lookups().sort()).toEqual(['gardening', 'tips']));
    expect(screen.queryByRole('button', { name: /Did you mean/ })).toBeNull();
  });

  it('offers no spelling far from what was typed', async () => {
    const { lookups } = stubNothingFound({ tipss: { podcasts: [{ title: 'Money Talks' }, { title: 'Top Shelf' }], words: [] } });
    renderApp(link([{ term: 'tipss' }]));
    await emptyState();
    await waitFor(() => expect(lookups()).toEqual(['tipss']));
    expect(screen.queryByRole('button', { name: /Did you mean/ })).toBeNull();
  });

  it('offers an episode search for the same words after a podcast search', async () => {
    const { searches } = stubNothingFound();
    renderApp(link([{ term: 'composting' }], { languages: 'en' }));
    await emptyState();
    const sent = await follow('Search episodes and transcripts for the same words', searches);
    expect(sent.path).toBe('/api/v1/search/episodes');
    expect(sent.body.searchTerms).toEqual([
      {
        searchTerm: 'composting',
        searchType: 'text',
        searchTargets: ['episode-title', 'episode-description', 'transcript'],
        searchTermOptions: { matchMode: 'optional' },
      },
    ]);
    expect(sent.body.languages).toEqual(['en']);
    expect(sent.body.includeMatchSnippet).toBe(true);
  });

  it('offers a podcast search for the same words after an episode search', async () => {
    const { searches } = stubNothingFound();
    renderApp(link([{ term: 'composting', targets: ['episode-title', 'transcript'] }]));
    await emptyState();
    expect(searches()[0].path).toBe('/api/v1/search/episodes');
    const sent = await follow('Search podcasts for the same words', searches);
    expect(sent.path).toBe('/api/v1/search/podcasts');
    expect(sent.body.searchTerms![0].searchTargets).toEqual(['podcast-title', 'podcast-description']);
    for (const target of sent.body.searchTerms![0].searchTargets) expect(target).toMatch(/^podcast-/);
  });

  it('offers no podcast search when an episode filter makes it an episode search', async () => {
    setApiKey('pl_free');
    stubApi((url) => {
      if (url.pathname === '/api/v1/teams/usage/current') return { body: { plan: 'free', aliases: [], featureFlags: {}, periodStart: '2026-11-01', periodEnd: '2026-11-30', totalUsed: 0 } };
      if (url.pathname === '/api/v1/users/preferences') return { body: { preferences: {} } };
      if (url.pathname === '/api/v1/search/episodes') return nothingFound('episodes');
      if (url.pathname === '/api/v1/autocomplete/podcasts') return { body: { podcasts: [], words: [] } };
      return undefined;
    });
    renderApp(link([{ term: 'composting', targets: ['episode-title'] }], { hasTranscript: true }));
    const state = await emptyState();
    expect(within(state).getByRole('button', { name: 'Search again without filters' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Search podcasts for the same words' })).toBeNull();
  });

  it('keeps the filters hidden after a suggestion when they were hidden', async () => {
    const { searches } = stubNothingFound();
    renderApp(link([{ term: 'carbon tax', matchMode: 'must' }], { languages: 'de' }));
    await emptyState();
    // A search with filters shows them at first.
    await userEvent.click(screen.getByRole('button', { name: 'Hide filters' }));
    await follow('Match any of the words', searches);
    expect(screen.getByRole('button', { name: 'Filters' })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('textbox', { name: 'Languages' })).toBeNull();
  });

  it('moves the focus to the results heading after a suggestion, not to the page', async () => {
    stubNothingFound();
    renderApp(link([{ term: 'carbon tax', matchMode: 'must' }]));
    await emptyState();
    await userEvent.click(screen.getByRole('button', { name: 'Match any of the words' }));
    await waitFor(() => expect(screen.getByRole('heading', { level: 2 })).toHaveFocus());
  });
});
