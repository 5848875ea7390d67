import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { renderApp, stubApi } from '@/test/render';
import { specSection } from '@/test/spec';

// SPEC §9: the directory list's default limit.
const DEFAULT_LIMIT = Number(specSection(9).match(/Podcast directory list default limit (\d+)/)![1]);

const summary = (index: number) => ({
  id: `p${index}`,
  slug: `b-show-${index}`,
  title: `B show ${index}`,
  author: index === 0 ? 'Bea' : null,
  genres: [],
  imageUrl: null,
  language: 'en',
  lastEpisodePublishedAt: null,
  titleLatest: `B show ${index}`,
  authorityScore: null,
});

afterEach(() => vi.unstubAllGlobals());

describe('the directory by letter', () => {
  it("lists the letter's podcasts a page at a time, asking the server for each page", async () => {
    const calls = stubApi((url) => {
      if (url.pathname !== '/api/v1/podcasts/directory/b') return undefined;
      const skip = Number(url.searchParams.get('skip'));
      const count = skip === 0 ? DEFAULT_LIMIT : 2;
      return { body: { podcasts: Array.from({ length: count }, (_, index) => summary(skip + index)) } };
    });
    renderApp('/podcasts/directory/b');
    expect(await screen.findByRole('heading', { level: 1, name: 'Podcasts: B' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'B show 0' })).toHaveAttribute('href', '/podcasts/b-show-0');
    expect(screen.getByText(/· Bea/)).toBeInTheDocument();
    const directoryCalls = () => calls.filter((call) => call.url.pathname === '/api/v1/podcasts/directory/b');
    expect(Object.fromEntries(directoryCalls()[0].url.searchParams.entries())).toEqual({ limit: String(DEFAULT_LIMIT), skip: '0' });
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();

    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('link', { name: `B show ${DEFAULT_LIMIT + 1}` })).toBeInTheDocument();
    expect(directoryCalls().at(-1)!.url.searchParams.get('skip')).toBe(String(DEFAULT_LIMIT));
    // A short page is the last one.
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeEnabled();
    // The letter navigation marks the current letter.
    expect(within(screen.getByRole('navigation', { name: 'Letters' })).getByRole('link', { name: 'B' })).toHaveAttribute('aria-current', 'page');
  });

  it('refuses an uppercase letter without calling the API (SPEC §2: lowercase letter)', async () => {
    const calls = stubApi(() => undefined);
    renderApp('/podcasts/directory/B');
    expect(await screen.findByText('No such letter')).toBeInTheDocument();
    await waitFor(() => expect(calls.filter((call) => call.url.pathname.startsWith('/api/v1/podcasts/directory/'))).toHaveLength(0));
  });

  it('says when a letter has no podcasts', async () => {
    stubApi((url) => (url.pathname === '/api/v1/podcasts/directory/q' ? { body: { podcasts: [] } } : undefined));
    renderApp('/podcasts/directory/q');
    expect(await screen.findByText('No podcasts under Q')).toBeInTheDocument();
  });
});
