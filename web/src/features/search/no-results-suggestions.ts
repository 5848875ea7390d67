// What a search that found nothing could try next: each suggestion is the same search
// with one change (no filters, one filter less, any of the words, the words instead of
// the phrase, the other search mode, the words spelt as the index knows them).

import type { PlanTier } from '@/config/plans';
import type { SearchAutocompletePodcastsResponse, SearchTarget } from '@/lib/api-types';

import {
  activeFilters,
  buildSearchBody,
  EMPTY_FILTERS,
  searchModeOf,
  type FilterInputs,
  type SearchFormState,
  type TermInput,
} from './search-form-state';

export type NextStepKind = 'spelling' | 'without-filters' | 'without-filter' | 'any-word' | 'not-phrase' | 'episodes' | 'podcasts';

export type NextStep = {
  kind: NextStepKind;
  /** What the button says. */
  label: string;
  /** The search it runs. */
  state: SearchFormState;
};

/** Filters as a chip names them (the filters panel's labels). */
export const FILTER_LABELS: Record<keyof FilterInputs, string> = {
  languages: 'Languages',
  includeItunesGenres: 'Genres to include',
  excludeItunesGenres: 'Genres to exclude',
  explicit: 'Explicit content',
  foundedSince: 'Founded',
  lastEpisodeDateSince: 'Active since',
  publishedSince: 'Episode published',
  hasTranscript: 'Has a transcript',
  includePodcastIds: 'Only these podcast ids',
  excludePodcastIds: 'Exclude podcast ids',
  includeEpisodeIds: 'Only these episode ids',
  minTotalEpisodes: 'Min episodes',
  maxTotalEpisodes: 'Max episodes',
  minItunesRating: 'Min Apple rating',
  minItunesRatingCount: 'Min Apple ratings count',
  minSpotifyRating: 'Min Spotify rating',
  minSpotifyRatingCount: 'Min Spotify ratings count',
  minCastboxPlays: 'Min Castbox plays',
  minCastboxSubscribers: 'Min Castbox subscribers',
  podcastCountries: 'Countries',
  hasPrimaryContact: 'Has a primary contact',
  hasSocials: 'Social profiles',
  podcastHasGuests: 'Has guests',
  pageSize: 'Page size',
};

/** A filter's value as a chip shows it, from its wire form. */
function filterValueText(value: unknown): string | null {
  if (value === true) return null;
  if (Array.isArray(value)) return value.length > 3 ? `${value.slice(0, 3).join(', ')} +${value.length - 3}` : value.join(', ');
  if (typeof value === 'object' && value !== null) {
    const date = value as { type?: string; unit?: string; value?: number; date?: string };
    if (date.type === 'custom') return String(date.date);
    const unit = date.value === 1 ? date.unit?.replace(/s$/, '') : date.unit;
    return `last ${date.value} ${unit}`;
  }
  if (value === 'clean') return 'clean only';
  if (value === 'explicit') return 'explicit only';
  return String(value);
}

export const filterChipText = (name: keyof FilterInputs, value: unknown) => {
  const text = filterValueText(value);
  return text === null ? FILTER_LABELS[name] : `${FILTER_LABELS[name]}: ${text}`;
};

/** The filters a search sent that narrow it (the plan's filters that are set; the page size aside). */
export function narrowingFilters(state: SearchFormState, tier: PlanTier): { name: keyof FilterInputs; value: unknown }[] {
  const built = buildSearchBody(state, tier);
  if (!built.ok) return [];
  const sent = built.body as Record<string, unknown>;
  return Object.keys(activeFilters(state.filters, searchModeOf(state)))
    .filter((name) => name !== 'pageSize' && name in sent)
    .map((name) => ({ name: name as keyof FilterInputs, value: sent[name] }));
}

const WORD = /[\p{L}\p{N}]+/gu;
const wordsOf = (text: string) => text.match(WORD) ?? [];
/** Terms that look for something (a "must not match" term only takes results away). */
const positiveTerms = (state: SearchFormState) => state.terms.filter((term) => term.term.trim() !== '' && term.matchMode !== 'not');

const withTerms = (state: SearchFormState, change: (term: TermInput) => TermInput): SearchFormState => ({
  ...state,
  terms: state.terms.map(change),
});

const PODCAST_TARGET_OF: Record<SearchTarget, SearchTarget> = {
  'podcast-title': 'podcast-title',
  'podcast-description': 'podcast-description',
  'episode-title': 'podcast-title',
  'episode-description': 'podcast-description',
  transcript: 'podcast-description',
};

const EPISODE_TARGET_OF: Record<SearchTarget, SearchTarget> = {
  'podcast-title': 'episode-title',
  'podcast-description': 'episode-description',
  'episode-title': 'episode-title',
  'episode-description': 'episode-description',
  transcript: 'transcript',
};

const mapTargets = (targets: SearchTarget[], table: Record<SearchTarget, SearchTarget>, extra: SearchTarget[] = []) => [
  ...new Set([...targets.map((target) => table[target]), ...extra]),
];

/** The suggestions that need no round trip, each a search that differs from `state`. */
export function nextSteps(state: SearchFormState, tier: PlanTier): NextStep[] {
  const steps: NextStep[] = [];
  const filters = narrowingFilters(state, tier);
  if (filters.length > 0) {
    steps.push({
      kind: 'without-filters',
      label: 'Search again without filters',
      state: { ...state, filters: { ...EMPTY_FILTERS, pageSize: state.filters.pageSize } },
    });
  }
  if (filters.length > 1) {
    for (const { name, value } of filters) {
      steps.push({
        kind: 'without-filter',
        label: filterChipText(name, value),
        state: { ...state, filters: { ...state.filters, [name]: EMPTY_FILTERS[name] } },
      });
    }
  }
  const positive = positiveTerms(state);
  const must = positive.filter((term) => term.matchMode === 'must');
  if (must.length > 1 || must.some((term) => wordsOf(term.term).length > 1)) {
    // Any of the words cannot hold for a phrase, so a phrase among them becomes words too.
    steps.push({
      kind: 'any-word',
      label: 'Match any of the words',
      state: withTerms(state, (term) => (term.matchMode === 'must' ? { ...term, matchMode: 'optional', phraseMatch: false } : term)),
    });
  }
  if (positive.some((term) => term.phraseMatch && wordsOf(term.term).length > 1)) {
    steps.push({
      kind: 'not-phrase',
      label: 'Search the words, not the exact phrase',
      state: withTerms(state, (term) => (term.matchMode !== 'not' && term.phraseMatch ? { ...term, phraseMatch: false } : term)),
    });
  }
  if (positive.length > 0) {
    if (searchModeOf(state) === 'podcasts') {
      steps.push({
        kind: 'episodes',
        label: 'Search episodes and transcripts for the same words',
        state: withTerms(state, (term) => ({ ...term, targets: mapTargets(term.targets, EPISODE_TARGET_OF, ['transcript']) })),
      });
    } else {
      // Only when nothing but the terms makes it an episode search: episode filters have no podcast form.
      const podcastSearch = withTerms(state, (term) => ({ ...term, targets: mapTargets(term.targets, PODCAST_TARGET_OF) }));
      if (searchModeOf(podcastSearch) === 'podcasts') {
        steps.push({ kind: 'podcasts', label: 'Search podcasts for the same words', state: podcastSearch });
      }
    }
  }
  return steps.filter((step) => changesTheSearch(state, step.state, tier));
}

/** A suggestion is worth a button only when it is a valid search other than this one. */
function changesTheSearch(before: SearchFormState, after: SearchFormState, tier: PlanTier): boolean {
  const was = buildSearchBody(before, tier);
  const now = buildSearchBody(after, tier);
  return now.ok && (!was.ok || was.mode !== now.mode || JSON.stringify(was.body) !== JSON.stringify(now.body));
}

/** The words whose spelling is looked up: those of the terms that look for something,
 * three letters or more, once each, at most eight. */
export function wordsToCheck(state: SearchFormState): string[] {
  const words = positiveTerms(state)
    .flatMap((term) => wordsOf(term.term))
    .map((word) => word.toLowerCase())
    .filter((word) => word.length >= 3 && !/^\p{N}+$/u.test(word));
  return [...new Set(words)].slice(0, 8);
}

/** Edit distance with adjacent transpositions (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  const rows: number[][] = Array.from({ length: left.length + 1 }, (_, i) => [i, ...Array<number>(right.length).fill(0)]);
  for (let j = 1; j <= right.length; j++) rows[0][j] = j;
  for (let i = 1; i <= left.length; i++) {
    for (let j = 1; j <= right.length; j++) {
      const cost = left[i - 1] === right[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && left[i - 1] === right[j - 2] && left[i - 2] === right[j - 1]) {
        rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
      }
    }
  }
  return rows[left.length][right.length];
}

/**
 * The word the index knows closest to `word`, from its completions and the words of the
 * podcast titles it suggests (which allow a typo); `null` when the index knows `word`
 * itself or nothing close: at most one edit for a word of up to five letters, two for a
 * longer one, or a completion of it.
 */
export function closestKnownWord(word: string, answer: SearchAutocompletePodcastsResponse | undefined): string | null {
  if (!answer) return null;
  const candidates = [
    ...new Set([...answer.words, ...answer.podcasts.flatMap((podcast) => wordsOf(podcast.title))].map((candidate) => candidate.toLowerCase())),
  ];
  if (candidates.includes(word)) return null;
  const allowed = [...word].length <= 5 ? 1 : 2;
  let best: { word: string; distance: number } | null = null;
  for (const candidate of candidates) {
    const distance = editDistance(word, candidate);
    if (distance > allowed && !candidate.startsWith(word)) continue;
    if (!best || distance < best.distance) best = { word: candidate, distance };
  }
  return best?.word ?? null;
}

/** The search with each word spelt as `corrections` says; `null` when nothing changes. */
export function respelled(state: SearchFormState, corrections: ReadonlyMap<string, string>): SearchFormState | null {
  if (corrections.size === 0) return null;
  const next = withTerms(state, (term) =>
    term.matchMode === 'not' ? term : { ...term, term: term.term.replace(WORD, (word) => corrections.get(word.toLowerCase()) ?? word) },
  );
  const same = next.terms.every((term, index) => term.term.toLowerCase() === state.terms[index].term.toLowerCase());
  return same ? null : next;
}

/** "Did you mean …?" from one autocomplete answer per word of `words`. */
export function spellingStep(
  state: SearchFormState,
  words: string[],
  answers: (SearchAutocompletePodcastsResponse | undefined)[],
  tier: PlanTier,
): NextStep | null {
  const corrections = new Map<string, string>();
  words.forEach((word, index) => {
    const known = closestKnownWord(word, answers[index]);
    if (known && known !== word) corrections.set(word, known);
  });
  const next = respelled(state, corrections);
  if (!next || !changesTheSearch(state, next, tier)) return null;
  const query = positiveTerms(next)
    .map((term) => `“${term.term.trim()}”`)
    .join(', ');
  return { kind: 'spelling', label: `Did you mean ${query}?`, state: next };
}
