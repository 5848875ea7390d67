import { describe, expect, it } from 'vitest';

import { closestKnownWord, editDistance, filterChipText, nextSteps, wordsToCheck } from './no-results-suggestions';
import { EMPTY_FILTERS, newTerm, type SearchFormState } from './search-form-state';

const answer = (words: string[], titles: string[] = []) => ({ words, podcasts: titles.map((title) => ({ title })) }) as never;

const search = (terms: SearchFormState['terms'], filters = EMPTY_FILTERS): SearchFormState => ({ terms, filters, sortField: 'relevance', sortDirection: 'desc' });

describe('edit distance', () => {
  it('counts insertions, deletions, substitutions and swapped neighbours as one edit each', () => {
    expect(editDistance('gardning', 'gardening')).toBe(1);
    expect(editDistance('tipss', 'tips')).toBe(1);
    expect(editDistance('podcsat', 'podcast')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });
});

describe('the closest word the index knows', () => {
  it('is none for a word the index holds', () => {
    expect(closestKnownWord('garden', answer(['garden', 'gardening']))).toBeNull();
  });

  it('is a title word one typo away, before a completion further off', () => {
    expect(closestKnownWord('gardning', answer([], ['The Gardening Hour', 'Garden Tales']))).toBe('gardening');
  });

  it('allows one edit in a short word and two in a longer one', () => {
    expect(closestKnownWord('tipss', answer([], ['Top Tips']))).toBe('tips');
    expect(closestKnownWord('tpiss', answer([], ['Top Tips']))).toBeNull();
    expect(closestKnownWord('gardenning', answer([], ['Gardening']))).toBe('gardening');
  });

  it('takes the most frequent of equally near completions', () => {
    expect(closestKnownWord('beekeep', answer(['beekeeping', 'beekeepers']))).toBe('beekeeping');
  });

  it('is none without an answer', () => {
    expect(closestKnownWord('garden', undefined)).toBeNull();
  });
});

describe('the words looked up', () => {
  it('are those of the terms that look for something, three letters or more, once each', () => {
    const state = search([
      newTerm('Gardening tips for UK gardens'),
      { ...newTerm('tips 2024'), matchMode: 'must' },
      { ...newTerm('lawn'), matchMode: 'not' },
    ]);
    expect(wordsToCheck(state)).toEqual(['gardening', 'tips', 'for', 'gardens']);
  });
});

describe('the next steps', () => {
  it('are none for a plain one-word podcast search but the episode search', () => {
    expect(nextSteps(search([newTerm('gardening')]), 'business').map((step) => step.kind)).toEqual(['episodes']);
  });

  it('leave out filters the plan does not send, and the page size', () => {
    const filters = { ...EMPTY_FILTERS, podcastCountries: 'us', pageSize: '50' };
    expect(nextSteps(search([newTerm('gardening')], filters), 'public').map((step) => step.kind)).toEqual(['episodes']);
    expect(nextSteps(search([newTerm('gardening')], filters), 'business').map((step) => step.kind)).toEqual(['without-filters', 'episodes']);
  });

  it('keep a filters-only search from losing every filter', () => {
    const filters = { ...EMPTY_FILTERS, languages: 'de' };
    expect(nextSteps(search([newTerm('')], filters), 'business')).toEqual([]);
  });
});

describe('a filter chip', () => {
  it('names the filter and its value as the request carries it', () => {
    expect(filterChipText('languages', ['de', 'fr'])).toBe('Languages: de, fr');
    expect(filterChipText('hasTranscript', true)).toBe('Has a transcript');
    expect(filterChipText('foundedSince', { type: 'relative', unit: 'months', value: 1 })).toBe('Founded: last 1 month');
    expect(filterChipText('lastEpisodeDateSince', { type: 'custom', date: '2024-01-01' })).toBe('Active since: 2024-01-01');
    expect(filterChipText('minCastboxPlays', 500)).toBe('Min Castbox plays: 500');
  });
});
