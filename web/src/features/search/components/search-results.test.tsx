import { render, screen, within } from '@testing-library/react';
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
