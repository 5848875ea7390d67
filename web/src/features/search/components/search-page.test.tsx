import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { renderApp, stubApi } from '@/test/render';

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
    expect(snippet.querySelector('mark')?.textContent).toBe('carbon');
    expect(snippet.textContent).toContain('tax & dividends');
    const first = JSON.parse(String(calls[0].init?.body)) as Record<string, unknown>;
    expect(first.searchTerms).toEqual([
      { searchTerm: 'carbon', searchType: 'text', searchTargets: ['podcast-title', 'podcast-description', 'transcript'], searchTermOptions: { matchMode: 'optional' } },
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Load more results' }));
    expect(await screen.findByText('Second page')).toBeInTheDocument();
    await waitFor(() => expect(JSON.parse(String(calls.at(-1)!.init?.body)).cursor).toBe('next-1'));
    expect(screen.queryByRole('button', { name: 'Load more results' })).toBeNull();
  });

  it('shows the server refusal message', async () => {
    stubApi(() => ({ status: 400, body: { status: 'BAD_REQUEST', data: { message: 'Search filter "languages" is not available for your plan.' } } }));
    renderApp('/app/search?q=news');
    expect(await screen.findByRole('alert')).toHaveTextContent('Search filter "languages" is not available for your plan.');
  });

  it('locks filters the signed-out plan lacks, with an upgrade hint', async () => {
    stubApi(() => undefined);
    renderApp('/app/search');
    fireEvent.click(screen.getByRole('button', { name: 'Filters' }));
    expect(screen.getByLabelText('podcastCountries')).toBeDisabled();
    expect(screen.getByLabelText('languages')).toBeEnabled();
    expect(document.querySelector('[data-filter="podcastCountries"] .upgrade-hint')).not.toBeNull();
  });
});
