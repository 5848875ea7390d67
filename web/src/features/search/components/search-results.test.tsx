import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';

import type { PodcastHit } from '@/lib/api-types';

import { SearchResults } from './search-results';

// Only the fields the results read; the rest of a hit is irrelevant here.
const hit = (overrides: Record<string, unknown>) =>
  ({
    podcastId: 'p1',
    podcastSlug: 'climate-hour',
    podcastRssTitle: 'Climate Hour',
    podcastRssAuthor: 'Ana',
    podcastImageUrl: null,
    totalEpisodes: 120,
    lastEpisodeDate: '2026-11-01T00:00:00Z',
    podcastTitleHighlights: null,
    podcastDescriptionHighlights: null,
    podcastRssDescriptionNoHtml: 'Weekly climate talk.',
    podcastAuthorityScoreTotal: null,
    rssCategories: null,
    applePodcastsRating: null,
    applePodcastsRatingsCount: null,
    primaryContact: null,
    podcastEmails: null,
    ...overrides,
  }) as unknown as PodcastHit;

const scored = hit({
  podcastAuthorityScoreTotal: 61.6,
  rssCategories: ['Science', 'Earth Sciences', 'News', 'Politics'],
  applePodcastsRating: 4.54,
  applePodcastsRatingsCount: 1234,
  primaryContact: 'host@example.com',
});
const bare = hit({ podcastId: 'p2', podcastSlug: 'bare', podcastRssTitle: 'Bare Show' });

const show = (view: 'list' | 'table') =>
  render(
    <MemoryRouter>
      <SearchResults mode="podcasts" hits={[scored, bare]} view={view} canAddToProject={false} />
    </MemoryRouter>,
  );

describe('podcast results', () => {
  it('a show with one episode reads "1 episode", not "1 episodes"', () => {
    render(
      <MemoryRouter>
        <SearchResults mode="podcasts" hits={[hit({ totalEpisodes: 1 }), hit({ podcastId: 'p2', totalEpisodes: 1200 })]} view="list" canAddToProject={false} />
      </MemoryRouter>,
    );
    expect(screen.getByText(/^Ana · 1 episode · last episode/)).toBeInTheDocument();
    expect(screen.getByText(/^Ana · 1,200 episodes · last episode/)).toBeInTheDocument();
  });

  // What a plan may not see was left out, so a free user could not tell "no contact"
  // from "not on your plan". SPEC §6, "Extra podcast fields": free and above get guests;
  // individual and above also get the primary contact.
  it('show the facts a plan does not see as locked, with where to get them', () => {
    const withGuests = hit({ podcastHasGuests: true, podcastEmails: ['host@example.com'] });
    const factsFor = (tier: 'public' | 'free' | 'individual') => {
      const { unmount } = render(
        <MemoryRouter>
          <SearchResults mode="podcasts" hits={[withGuests]} view="list" canAddToProject={false} tier={tier} />
        </MemoryRouter>,
      );
      const list = screen.getByRole('list', { name: 'Podcast facts' });
      const items = within(list).getAllByRole('listitem').map((item) => ({
        text: item.textContent,
        href: item.querySelector('a')?.getAttribute('href') ?? null,
      }));
      unmount();
      return items;
    };
    expect(factsFor('public')).toEqual([
      { text: ' Guests: sign up', href: '/sign-up' },
      { text: ' Contact: sign up', href: '/sign-up' },
    ]);
    expect(factsFor('free')).toEqual([
      { text: 'Has guests', href: null },
      { text: ' Contact: individual plan', href: '/pricing' },
    ]);
    expect(factsFor('individual')).toEqual([
      { text: 'Has guests', href: null },
      { text: 'Contact available', href: null },
    ]);
  });

  it('show what an agent decides on: score, genres, rating and a contact', () => {
    show('list');
    const [first, second] = screen.getAllByRole('list', { name: 'Podcast facts' });
    expect(within(first).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Authority 62',
      'Science',
      'Earth Sciences',
      'News',
      '★ 4.5 (1,234)',
      'Contact available',
    ]);
    // A podcast without them shows nothing made up.
    expect(within(second).queryAllByRole('listitem')).toHaveLength(0);
  });

  it('have the same columns in the table', () => {
    show('table');
    const headers = screen.getAllByRole('columnheader').map((cell) => cell.textContent);
    expect(headers).toEqual(['Podcast', 'Author', 'Authority', 'Genres', 'Episodes', 'Last episode', 'Apple rating', 'Contact']);
    const [, first, second] = screen.getAllByRole('row');
    expect(within(first).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(
      expect.arrayContaining(['62', 'Science, Earth Sciences, News', '4.5', 'Yes']),
    );
    expect(within(second).getAllByRole('cell').map((cell) => cell.textContent).filter((text) => text === '—')).toHaveLength(4);
  });
});

/** The results with a selection kept the way the search page keeps it. */
function Selectable({ view }: { view: 'list' | 'table' }) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string, on: boolean) =>
    setSelected((previous) => {
      const next = new Set(previous);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  return (
    <MemoryRouter>
      <output aria-label="Selected ids">{[...selected].join(',')}</output>
      <SearchResults mode="podcasts" hits={[scored, bare]} view={view} canAddToProject={false} selection={{ selected, toggle }} />
    </MemoryRouter>
  );
}

describe('selecting podcast results', () => {
  it.each(['list', 'table'] as const)('gives each podcast a labelled checkbox in the %s, ticked with the keyboard too', async (view) => {
    render(<Selectable view={view} />);
    const boxes = screen.getAllByRole('checkbox');
    expect(boxes.map((box) => box.getAttribute('aria-label'))).toEqual(['Select Climate Hour', 'Select Bare Show']);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Bare Show' }));
    screen.getByRole('checkbox', { name: 'Select Climate Hour' }).focus();
    await userEvent.keyboard(' ');
    expect(screen.getByRole('status', { name: 'Selected ids' })).toHaveTextContent('p2,p1');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Bare Show' }));
    expect(screen.getByRole('status', { name: 'Selected ids' })).toHaveTextContent(/^p1$/);
  });

  it('has no checkboxes without a selection', () => {
    show('table');
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
  });
});
