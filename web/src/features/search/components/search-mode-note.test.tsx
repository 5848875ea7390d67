import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { renderApp, stubApi } from '@/test/render';

afterEach(() => vi.unstubAllGlobals());

const facets = (semanticSearch: boolean) => ({ body: { languages: [], genres: [], semanticSearch } });

describe('the search mode note', () => {
  it('says searches are keyword-only while the server builds its vectors', async () => {
    stubApi((url) => (url.pathname === '/api/v1/search/facets' ? facets(false) : undefined));
    renderApp('/');
    expect(await screen.findByText(/^Keyword search only for now: this server is still building/)).toHaveAttribute('role', 'status');
  });

  it('says nothing once searches are hybrid', async () => {
    const calls = stubApi((url) => (url.pathname === '/api/v1/search/facets' ? facets(true) : undefined));
    renderApp('/');
    await waitFor(() => expect(calls.some((call) => call.url.pathname === '/api/v1/search/facets')).toBe(true));
    await screen.findByRole('search', { name: 'Search podcasts' });
    expect(screen.queryByText(/Keyword search only/)).toBeNull();
  });

  it('goes away by itself when the vectors are ready', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let ready = false;
    stubApi((url) => (url.pathname === '/api/v1/search/facets' ? facets(ready) : undefined));
    renderApp('/');
    expect(await screen.findByText(/Keyword search only/)).toBeInTheDocument();
    ready = true;
    await act(() => vi.advanceTimersByTimeAsync(11_000));
    await waitFor(() => expect(screen.queryByText(/Keyword search only/)).toBeNull());
    vi.useRealTimers();
  });
});
