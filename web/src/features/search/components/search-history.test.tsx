import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { podcastHit } from '@/test/hits';
import { renderApp, stubApi } from '@/test/render';

afterEach(() => vi.unstubAllGlobals());


/** A podcast search server: one show named after the first term of each search. */
function stubPodcastSearch() {
  const calls = stubApi((url, init) => {
    if (url.pathname !== '/api/v1/search/podcasts') return undefined;
    const body = JSON.parse(String(init?.body)) as { searchTerms?: { searchTerm: string }[] };
    const word = body.searchTerms?.[0]?.searchTerm ?? 'nothing';
    return {
      body: {
        searchMode: 'podcasts',
        searchId: `s-${word}`,
        searchOptions: {},
        result: { total: { value: 1, relation: 'eq' }, maxScore: 1, hitsReturned: 1, hits: [podcastHit(`p-${word}`, `Show about ${word}`)] },
        cursor: null,
      },
    };
  });
  const searches = () => calls.filter((call) => call.url.pathname === '/api/v1/search/podcasts').map((call) => JSON.parse(String(call.init?.body)) as Record<string, unknown>);
  return searches;
}

const box = () => screen.getByLabelText('Search term 1');

async function searchFor(words: string) {
  fireEvent.change(box(), { target: { value: words } });
  fireEvent.click(screen.getByRole('button', { name: 'Search' }));
  expect(await screen.findByRole('link', { name: `Show about ${words}` })).toBeInTheDocument();
}

describe('searches in the browser history', () => {
  it('goes back and forward through two searches with their terms and results (regression: the entry was replaced, so Back left the page)', async () => {
    const searches = stubPodcastSearch();
    const { router } = renderApp('/app/search');
    await searchFor('gardening');
    await searchFor('beekeeping');
    expect(searches().map((body) => (body.searchTerms as { searchTerm: string }[])[0].searchTerm)).toEqual(['gardening', 'beekeeping']);

    await act(() => router.navigate(-1));
    expect(await screen.findByRole('link', { name: 'Show about gardening' })).toBeInTheDocument();
    expect(box()).toHaveValue('gardening');
    expect(screen.queryByRole('link', { name: 'Show about beekeeping' })).toBeNull();
    expect(router.state.location.pathname).toBe('/app/search');

    await act(() => router.navigate(1));
    expect(await screen.findByRole('link', { name: 'Show about beekeeping' })).toBeInTheDocument();
    expect(box()).toHaveValue('beekeeping');

    // Back to before the first search: the page as it opened.
    await act(() => router.navigate(-2));
    expect(await screen.findByText('Start with a word or two')).toBeInTheDocument();
    expect(box()).toHaveValue('');
  });

  it('runs the earlier search again on Back when its results are no longer kept', async () => {
    const searches = stubPodcastSearch();
    const { router } = renderApp('/app/search');
    await searchFor('gardening');
    await searchFor('beekeeping');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 10 * 60_000);
    try {
      await act(() => router.navigate(-1));
      await waitFor(() => expect(searches()).toHaveLength(3));
    } finally {
      vi.useRealTimers();
    }
    expect(searches()[2].searchTerms).toEqual(searches()[0].searchTerms);
    expect(await screen.findByRole('link', { name: 'Show about gardening' })).toBeInTheDocument();
  });

  it('does not add an entry for typing, nor for the same search again', async () => {
    stubPodcastSearch();
    const { router } = renderApp('/app/search');
    await searchFor('gardening');
    fireEvent.change(box(), { target: { value: 'garden tools' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    fireEvent.change(box(), { target: { value: 'gardening' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    fireEvent.change(box(), { target: { value: 'typed, not searched' } });
    await act(() => router.navigate(-1));
    expect(await screen.findByRole('link', { name: 'Show about garden tools' })).toBeInTheDocument();
    expect(box()).toHaveValue('garden tools');
    await act(() => router.navigate(-1));
    expect(box()).toHaveValue('gardening');
  });

  it('adds no step for a link from the home page searched as it came', async () => {
    const searches = stubPodcastSearch();
    const { router } = renderApp('/');
    await act(() => router.navigate('/app/search?q=gardening'));
    expect(await screen.findByRole('link', { name: 'Show about gardening' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(router.state.location.search).toContain('s='));
    expect(searches()).toHaveLength(1);
    await act(() => router.navigate(-1));
    expect(router.state.location.pathname).toBe('/');
  });

  it('makes a sort change a step of its own, and Back restores the sort', async () => {
    const searches = stubPodcastSearch();
    const { router } = renderApp('/app/search');
    await searchFor('gardening');
    fireEvent.change(screen.getByRole('combobox', { name: 'Sort by' }), { target: { value: 'title' } });
    await waitFor(() => expect(searches().at(-1)!.sortOrder).toEqual([{ field: 'title', direction: 'desc' }]));
    await act(() => router.navigate(-1));
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Sort by' })).toHaveValue('relevance'));
    expect(box()).toHaveValue('gardening');
  });

  it('keeps the view when switching it, without a step of its own', async () => {
    stubPodcastSearch();
    const { router } = renderApp('/app/search');
    await searchFor('gardening');
    await searchFor('beekeeping');
    fireEvent.click(screen.getByRole('button', { name: 'Table' }));
    expect(router.state.location.search).toContain('view=table');
    await act(() => router.navigate(-1));
    expect(await screen.findByRole('link', { name: 'Show about gardening' })).toBeInTheDocument();
  });

  it('leaves the focus on the form after a search from it, and puts it on the results heading after Back', async () => {
    stubPodcastSearch();
    const { router } = renderApp('/app/search');
    const user = userEvent.setup();
    await user.type(box(), 'gardening');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByRole('link', { name: 'Show about gardening' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Search' })).toHaveFocus();
    await user.clear(box());
    await user.type(box(), 'beekeeping{Enter}');
    expect(await screen.findByRole('link', { name: 'Show about beekeeping' })).toBeInTheDocument();
    expect(box()).toHaveFocus();

    await act(() => router.navigate(-1));
    expect(await screen.findByRole('link', { name: 'Show about gardening' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('heading', { level: 2, name: '1 podcasts found' })).toHaveFocus());
    expect(document.activeElement).not.toBe(document.body);
  });
});
