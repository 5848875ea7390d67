// The search screen's form state and how it becomes the SDK's request body
// (POST /api/v1/search/podcasts or /episodes), with the search mode rule of SPEC §4.

import type {
  EpisodeSearchOptions,
  MatchMode,
  PodcastSearchOptions,
  SearchTarget,
  SortField,
} from '@/lib/api-types';
import { planAllowsFilter, type PlanTier, type SearchFilterName } from '@/config/plans';

export const SEARCH_TARGETS: { value: SearchTarget; label: string }[] = [
  { value: 'podcast-title', label: 'Podcast title' },
  { value: 'podcast-description', label: 'Podcast description' },
  { value: 'episode-title', label: 'Episode title' },
  { value: 'episode-description', label: 'Episode description' },
  { value: 'transcript', label: 'Transcript' },
];

export const EPISODE_TARGETS: readonly SearchTarget[] = ['episode-title', 'episode-description', 'transcript'];

export const MATCH_MODES: { value: MatchMode; label: string }[] = [
  { value: 'optional', label: 'Should match' },
  { value: 'must', label: 'Must match' },
  { value: 'not', label: 'Must not match' },
];

export const SORT_FIELDS: { value: SortField; label: string; podcastOnly?: boolean }[] = [
  { value: 'relevance', label: 'Relevance' },
  { value: 'recentActivity', label: 'Most recent' },
  { value: 'authorityScore', label: 'Authority score', podcastOnly: true },
  { value: 'title', label: 'Title' },
  { value: 'appleReviews', label: 'Apple reviews' },
  { value: 'spotifyReviews', label: 'Spotify reviews' },
];

export const MIN_TERM_LENGTH = 2;

export type TermInput = {
  id: number;
  term: string;
  targets: SearchTarget[];
  matchMode: MatchMode;
  phraseMatch: boolean;
};

export type RelativeDateInput = { unit: 'hours' | 'days' | 'months' | 'years'; value: number };

/** A date filter: relative to now, or a custom day (`YYYY-MM-DD`), as §5 allows. */
export type DateFilterInput = RelativeDateInput | { custom: string };

/** The social platforms the `hasSocials` filter takes (the SDK's enumeration). */
export type SocialKind = NonNullable<EpisodeSearchOptions['hasSocials']>[number];
export const SOCIAL_KINDS: readonly SocialKind[] = [
  'beehiiv', 'behance', 'bluesky', 'discord', 'facebook', 'github', 'instagram', 'linkedin', 'linktree',
  'mastodon', 'medium', 'patreon', 'pinterest', 'reddit', 'snapchat', 'soundcloud', 'substack', 'threads',
  'tiktok', 'tumblr', 'twitch', 'twitter', 'vimeo', 'whatsapp', 'youtube',
];

/** Filter values as the form holds them; empty values are left out of the body. */
export type FilterInputs = {
  languages: string;
  includeItunesGenres: string;
  excludeItunesGenres: string;
  explicit: '' | 'clean' | 'explicit';
  foundedSince: DateFilterInput | null;
  lastEpisodeDateSince: DateFilterInput | null;
  publishedSince: DateFilterInput | null;
  hasTranscript: boolean;
  includePodcastIds: string;
  excludePodcastIds: string;
  includeEpisodeIds: string;
  minTotalEpisodes: string;
  maxTotalEpisodes: string;
  minItunesRating: string;
  minItunesRatingCount: string;
  minSpotifyRating: string;
  minSpotifyRatingCount: string;
  minCastboxPlays: string;
  minCastboxSubscribers: string;
  podcastCountries: string;
  hasPrimaryContact: boolean;
  hasSocials: SocialKind[];
  podcastHasGuests: boolean;
  pageSize: string;
};

export const EMPTY_FILTERS: FilterInputs = {
  languages: '',
  includeItunesGenres: '',
  excludeItunesGenres: '',
  explicit: '',
  foundedSince: null,
  lastEpisodeDateSince: null,
  publishedSince: null,
  hasTranscript: false,
  includePodcastIds: '',
  excludePodcastIds: '',
  includeEpisodeIds: '',
  minTotalEpisodes: '',
  maxTotalEpisodes: '',
  minItunesRating: '',
  minItunesRatingCount: '',
  minSpotifyRating: '',
  minSpotifyRatingCount: '',
  minCastboxPlays: '',
  minCastboxSubscribers: '',
  podcastCountries: '',
  hasPrimaryContact: false,
  hasSocials: [],
  podcastHasGuests: false,
  pageSize: '',
};

export type SearchFormState = {
  terms: TermInput[];
  filters: FilterInputs;
  sortField: SortField;
  sortDirection: 'asc' | 'desc';
};

let nextTermId = 1;
export function newTerm(term = '', targets: SearchTarget[] = ['podcast-title', 'podcast-description']): TermInput {
  return { id: nextTermId++, term, targets, matchMode: 'optional', phraseMatch: false };
}

export type SearchMode = 'podcasts' | 'episodes';

/** Episode mode when a term targets episodes or transcripts, or an episode-only filter is set. */
const hasEpisodeTerm = (state: SearchFormState) =>
  state.terms.some((term) => term.term.trim() !== '' && term.targets.some((target) => EPISODE_TARGETS.includes(target)));

export function searchModeOf(state: SearchFormState): SearchMode {
  const episodeTerm = hasEpisodeTerm(state);
  const episodeFilter =
    state.filters.hasTranscript || state.filters.publishedSince !== null || list(state.filters.includeEpisodeIds).length > 0;
  return episodeTerm || episodeFilter ? 'episodes' : 'podcasts';
}

/** Why a search looks at episodes, in the words of the form; `null` for podcasts. */
export function searchModeReason(state: SearchFormState): string | null {
  if (searchModeOf(state) === 'podcasts') return null;
  if (hasEpisodeTerm(state)) return 'a term looks in episodes or transcripts';
  if (state.filters.hasTranscript) return '“Has a transcript” is a filter on episodes';
  if (state.filters.publishedSince !== null) return '“Published since” is a filter on episodes';
  return 'episode ids are set';
}

/** The values of a comma-separated filter input, trimmed (lowercased when asked), empty ones dropped. */
export const list = (text: string, lower = false) =>
  text
    .split(',')
    .map((item) => (lower ? item.trim().toLowerCase() : item.trim()))
    .filter(Boolean);

const integer = (text: string): number | undefined => {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isInteger(value) ? value : undefined;
};

const decimal = (text: string): number | undefined => {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
};

/** The wire form of a date filter (§5): relative with a positive value, or a custom day. */
const dateFilter = (input: DateFilterInput | null) => {
  if (!input) return undefined;
  if ('custom' in input) return /^\d{4}-\d{2}-\d{2}$/.test(input.custom) ? { type: 'custom', date: input.custom } : undefined;
  return input.value > 0 ? { type: 'relative', unit: input.unit, value: input.value } : undefined;
};

export type BuiltSearch =
  | { ok: true; mode: 'podcasts'; body: PodcastSearchOptions }
  | { ok: true; mode: 'episodes'; body: EpisodeSearchOptions }
  | { ok: false; error: string };

/** Client-side checks of SPEC §5 before a round trip; the server checks again. */
export function validateTerms(state: SearchFormState): string | null {
  for (const term of state.terms) {
    const text = term.term.trim();
    if (text === '') continue;
    if (text.length < MIN_TERM_LENGTH) return `Search terms must be at least ${MIN_TERM_LENGTH} characters.`;
    if (term.targets.length === 0) return `Choose at least one place to search for "${text}".`;
  }
  return null;
}

/** The filters of the form that are set, by wire name. */
export function activeFilters(filters: FilterInputs, mode: SearchMode): Partial<Record<SearchFilterName, unknown>> {
  const values: Partial<Record<SearchFilterName, unknown>> = {
    languages: list(filters.languages, true),
    includeItunesGenres: list(filters.includeItunesGenres, true),
    excludeItunesGenres: list(filters.excludeItunesGenres, true),
    explicit: filters.explicit || undefined,
    foundedSince: dateFilter(filters.foundedSince),
    lastEpisodeDateSince: dateFilter(filters.lastEpisodeDateSince),
    includePodcastIds: list(filters.includePodcastIds),
    excludePodcastIds: list(filters.excludePodcastIds),
    minTotalEpisodes: integer(filters.minTotalEpisodes),
    maxTotalEpisodes: integer(filters.maxTotalEpisodes),
    minItunesRating: decimal(filters.minItunesRating),
    minItunesRatingCount: integer(filters.minItunesRatingCount),
    minSpotifyRating: decimal(filters.minSpotifyRating),
    minSpotifyRatingCount: integer(filters.minSpotifyRatingCount),
    minCastboxPlays: integer(filters.minCastboxPlays),
    minCastboxSubscribers: integer(filters.minCastboxSubscribers),
    podcastCountries: list(filters.podcastCountries, true),
    hasPrimaryContact: filters.hasPrimaryContact || undefined,
    hasSocials: filters.hasSocials,
    podcastHasGuests: filters.podcastHasGuests || undefined,
    pageSize: integer(filters.pageSize),
  };
  if (mode === 'episodes') {
    values.hasTranscript = filters.hasTranscript || undefined;
    values.publishedSince = dateFilter(filters.publishedSince);
    values.includeEpisodeIds = list(filters.includeEpisodeIds);
  }
  return Object.fromEntries(
    Object.entries(values).filter(([, value]) => value !== undefined && !(Array.isArray(value) && value.length === 0)),
  );
}

/**
 * The request body of the SDK's search_podcasts / search_episodes, keeping only
 * the filters the plan allows (locked ones never leave the browser).
 */
export function buildSearchBody(state: SearchFormState, tier: PlanTier, cursor?: string | null): BuiltSearch {
  const termError = validateTerms(state);
  if (termError) return { ok: false, error: termError };
  const mode = searchModeOf(state);
  const terms = state.terms
    .filter((term) => term.term.trim() !== '')
    .map((term) => ({
      searchTerm: term.term.trim(),
      searchType: 'text' as const,
      searchTargets: mode === 'podcasts' ? term.targets.filter((t) => !EPISODE_TARGETS.includes(t)) : term.targets,
      searchTermOptions: term.phraseMatch
        ? { matchMode: term.matchMode, phraseMatch: true }
        : { matchMode: term.matchMode },
    }));
  const filters = Object.fromEntries(
    Object.entries(activeFilters(state.filters, mode)).filter(([name]) =>
      planAllowsFilter(tier, name as SearchFilterName),
    ),
  );
  if (terms.length === 0 && Object.keys(filters).length === 0) {
    return { ok: false, error: 'At least one search term or filter is required.' };
  }
  const body: Record<string, unknown> = {
    ...(terms.length > 0 ? { searchTerms: terms } : {}),
    ...filters,
    // A podcast-only sort (authority score) falls back to relevance for episodes.
    sortOrder: [
      {
        field: mode === 'episodes' && SORT_FIELDS.find((f) => f.value === state.sortField)?.podcastOnly ? 'relevance' : state.sortField,
        direction: state.sortDirection,
      },
    ],
  };
  if (cursor) body.cursor = cursor;
  if (mode === 'episodes') {
    body.includeMatchSnippet = true;
    return { ok: true, mode, body: body as EpisodeSearchOptions };
  }
  return { ok: true, mode, body: body as PodcastSearchOptions };
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);
const numberText = (value: unknown): string => (typeof value === 'number' && Number.isFinite(value) ? String(value) : '');

/** A date filter read back from its wire form; anything else is no filter. */
function dateInput(value: unknown): DateFilterInput | null {
  if (typeof value !== 'object' || value === null) return null;
  const item = value as { type?: unknown; unit?: unknown; value?: unknown; date?: unknown };
  if (item.type === 'custom' && typeof item.date === 'string') return { custom: item.date };
  if (item.type === 'relative' && typeof item.value === 'number' && ['hours', 'days', 'months', 'years'].includes(String(item.unit))) {
    return { unit: item.unit as RelativeDateInput['unit'], value: item.value };
  }
  return null;
}

/**
 * The form's filter inputs from filters in their wire form (as `activeFilters` writes them
 * and a user's saved default search filters hold them); unknown names are ignored.
 */
export function filtersFromWire(wire: Record<string, unknown> | null | undefined): FilterInputs {
  if (!wire) return EMPTY_FILTERS;
  const explicit = wire.explicit === 'clean' || wire.explicit === 'explicit' ? wire.explicit : '';
  return {
    languages: strings(wire.languages).join(', '),
    includeItunesGenres: strings(wire.includeItunesGenres).join(', '),
    excludeItunesGenres: strings(wire.excludeItunesGenres).join(', '),
    explicit,
    foundedSince: dateInput(wire.foundedSince),
    lastEpisodeDateSince: dateInput(wire.lastEpisodeDateSince),
    publishedSince: dateInput(wire.publishedSince),
    hasTranscript: wire.hasTranscript === true,
    includePodcastIds: strings(wire.includePodcastIds).join(', '),
    excludePodcastIds: strings(wire.excludePodcastIds).join(', '),
    includeEpisodeIds: strings(wire.includeEpisodeIds).join(', '),
    minTotalEpisodes: numberText(wire.minTotalEpisodes),
    maxTotalEpisodes: numberText(wire.maxTotalEpisodes),
    minItunesRating: numberText(wire.minItunesRating),
    minItunesRatingCount: numberText(wire.minItunesRatingCount),
    minSpotifyRating: numberText(wire.minSpotifyRating),
    minSpotifyRatingCount: numberText(wire.minSpotifyRatingCount),
    minCastboxPlays: numberText(wire.minCastboxPlays),
    minCastboxSubscribers: numberText(wire.minCastboxSubscribers),
    podcastCountries: strings(wire.podcastCountries).join(', '),
    hasPrimaryContact: wire.hasPrimaryContact === true,
    hasSocials: strings(wire.hasSocials).filter((kind): kind is SocialKind => (SOCIAL_KINDS as readonly string[]).includes(kind)),
    podcastHasGuests: wire.podcastHasGuests === true,
    pageSize: numberText(wire.pageSize),
  };
}

/** The form as the `s` parameter of /app/search carries it: a reload or a shared link
 * gets the same terms, filters, sort and mode back. */
export function formStateToParam(state: SearchFormState): string {
  return JSON.stringify({
    terms: state.terms.map(({ term, targets, matchMode, phraseMatch }) => ({ term, targets, matchMode, phraseMatch })),
    filters: Object.fromEntries(
      Object.entries(state.filters).filter(([name, value]) => value !== EMPTY_FILTERS[name as keyof FilterInputs] && !(Array.isArray(value) && value.length === 0)),
    ),
    sort: [state.sortField, state.sortDirection],
  });
}

const isDateInput = (value: unknown): value is DateFilterInput =>
  typeof value === 'object' &&
  value !== null &&
  (typeof (value as { custom?: unknown }).custom === 'string' ||
    (typeof (value as { unit?: unknown }).unit === 'string' && typeof (value as { value?: unknown }).value === 'number'));

/** The form from an `s` parameter; anything unreadable (an edited or old link) is left
 * out, and a parameter with no usable term or filter is no search at all. */
export function formStateFromParam(text: string | null): SearchFormState | null {
  if (!text) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const raw = parsed as { terms?: unknown; filters?: unknown; sort?: unknown };
  const targets = new Set<string>(SEARCH_TARGETS.map((target) => target.value));
  const modes = new Set<string>(MATCH_MODES.map((mode) => mode.value));
  const terms = (Array.isArray(raw.terms) ? raw.terms : [])
    .filter((term): term is Record<string, unknown> => typeof term === 'object' && term !== null && typeof term.term === 'string')
    .slice(0, 20)
    .map((term) => {
      const wanted = Array.isArray(term.targets) ? term.targets.filter((t): t is SearchTarget => typeof t === 'string' && targets.has(t)) : [];
      const input = newTerm(term.term as string, wanted.length > 0 ? wanted : undefined);
      if (typeof term.matchMode === 'string' && modes.has(term.matchMode)) input.matchMode = term.matchMode as MatchMode;
      input.phraseMatch = term.phraseMatch === true;
      return input;
    });
  const filters: FilterInputs = { ...EMPTY_FILTERS };
  const given = typeof raw.filters === 'object' && raw.filters !== null ? (raw.filters as Record<string, unknown>) : {};
  for (const name of Object.keys(EMPTY_FILTERS) as (keyof FilterInputs)[]) {
    const value = given[name];
    const empty = EMPTY_FILTERS[name];
    if (value === undefined) continue;
    const fits =
      (typeof empty === 'string' && typeof value === 'string') ||
      (typeof empty === 'boolean' && typeof value === 'boolean') ||
      (Array.isArray(empty) && Array.isArray(value) && value.every((item) => typeof item === 'string')) ||
      (empty === null && isDateInput(value));
    if (fits) (filters as Record<string, unknown>)[name] = value;
  }
  if (filters.explicit !== '' && filters.explicit !== 'clean' && filters.explicit !== 'explicit') filters.explicit = '';
  const [field, direction] = Array.isArray(raw.sort) ? raw.sort : [];
  const known = SORT_FIELDS.find((sort) => sort.value === field);
  return {
    terms: terms.length > 0 ? terms : [newTerm()],
    filters,
    sortField: known ? known.value : 'relevance',
    sortDirection: direction === 'asc' ? 'asc' : 'desc',
  };
}
