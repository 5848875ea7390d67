import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

import { activeFilters, buildSearchBody, EMPTY_FILTERS, filtersFromWire, newTerm, searchModeOf, searchModeReason, formStateFromParam, formStateToParam, type SearchFormState } from './search-form-state';

// The request bodies of POST /search/podcasts and /search/episodes in the server's
// OpenAPI document (web/openapi.json), which are the SDK's request models.
type JsonSchema = { properties?: Record<string, { $ref?: string; anyOf?: { $ref?: string; items?: { $ref?: string } }[]; items?: { $ref?: string } }>; required?: string[] };
type Document = {
  paths: Record<string, { post: { requestBody: { content: { 'application/json': { schema: { $ref: string } } } } } }>;
  components: { schemas: Record<string, JsonSchema> };
};
const document = JSON.parse(readFileSync(resolve(process.cwd(), 'openapi.json'), 'utf8')) as Document;
const schemas = document.components.schemas;
const bodyOf = (path: string) => schemas[document.paths[path].post.requestBody.content['application/json'].schema.$ref.split('/').pop()!];
const PODCAST_BODY = bodyOf('/api/v1/search/podcasts');
const EPISODE_BODY = bodyOf('/api/v1/search/episodes');

/** Checks an object against a schema's keys: no unknown key, every required key present, recursively. */
function conforms(value: unknown, schema: JsonSchema, path = 'body'): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  const problems: string[] = [];
  const props = schema.properties ?? {};
  for (const key of Object.keys(value)) {
    if (!(key in props)) problems.push(`${path}.${key} is not in the SDK model`);
  }
  for (const key of schema.required ?? []) {
    if (!(key in value)) problems.push(`${path}.${key} is required by the SDK model`);
  }
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const prop = props[key];
    const ref = prop?.$ref ?? prop?.items?.$ref ?? prop?.anyOf?.find((a) => a.$ref || a.items?.$ref)?.$ref ?? prop?.anyOf?.find((a) => a.items?.$ref)?.items?.$ref;
    if (!ref) continue;
    const childSchema = schemas[ref.split('/').pop()!];
    const items = Array.isArray(child) ? child : [child];
    items.forEach((item, index) => problems.push(...conforms(item, childSchema, `${path}.${key}[${index}]`)));
  }
  return problems;
}

const state = (overrides: Partial<SearchFormState> = {}): SearchFormState => ({
  terms: [newTerm('climate policy')],
  filters: EMPTY_FILTERS,
  sortField: 'relevance',
  sortDirection: 'desc',
  ...overrides,
});

describe('the search body', () => {
  it('is the SDK search_podcasts shape for podcast targets', () => {
    const built = buildSearchBody(state(), 'free');
    expect(built).toEqual({
      ok: true,
      mode: 'podcasts',
      body: {
        searchTerms: [
          {
            searchTerm: 'climate policy',
            searchType: 'text',
            searchTargets: ['podcast-title', 'podcast-description'],
            searchTermOptions: { matchMode: 'optional' },
          },
        ],
        sortOrder: [{ field: 'relevance', direction: 'desc' }],
      },
    });
    expect(built.ok && conforms(built.body, PODCAST_BODY)).toEqual([]);
  });

  it('switches to episodes for a transcript target, asks for snippets, and matches the SDK search_episodes model', () => {
    const term = { ...newTerm('carbon tax', ['transcript']), matchMode: 'must' as const, phraseMatch: true };
    const built = buildSearchBody(
      state({ terms: [term, newTerm('oil', ['episode-title'])], sortField: 'recentActivity', filters: { ...EMPTY_FILTERS, hasTranscript: true, languages: 'EN, fr', publishedSince: { unit: 'days', value: 30 } } }),
      'business',
      'cursor-2',
    );
    expect(built.ok && built.mode).toBe('episodes');
    if (!built.ok) throw new Error(built.error);
    expect(built.body).toMatchObject({
      searchTerms: [
        { searchTerm: 'carbon tax', searchType: 'text', searchTargets: ['transcript'], searchTermOptions: { matchMode: 'must', phraseMatch: true } },
        { searchTerm: 'oil', searchTargets: ['episode-title'], searchTermOptions: { matchMode: 'optional' } },
      ],
      hasTranscript: true,
      languages: ['en', 'fr'],
      publishedSince: { type: 'relative', unit: 'days', value: 30 },
      includeMatchSnippet: true,
      cursor: 'cursor-2',
      sortOrder: [{ field: 'recentActivity', direction: 'desc' }],
    });
    expect(conforms(built.body, EPISODE_BODY)).toEqual([]);
  });

  it('leaves out the filters the plan does not allow', () => {
    const filters = { ...EMPTY_FILTERS, languages: 'en', podcastCountries: 'us', minItunesRating: '4' };
    const publicBody = buildSearchBody(state({ filters }), 'public');
    const freeBody = buildSearchBody(state({ filters }), 'free');
    const paidBody = buildSearchBody(state({ filters }), 'individual');
    expect(publicBody.ok && Object.keys(publicBody.body)).toEqual(['searchTerms', 'languages', 'sortOrder']);
    expect(freeBody.ok && Object.keys(freeBody.body).sort()).toEqual(['languages', 'minItunesRating', 'searchTerms', 'sortOrder']);
    expect(paidBody.ok && (paidBody.body as { podcastCountries?: string[] }).podcastCountries).toEqual(['us']);
  });

  it('sends the free plan its Castbox, rating-count, id and founded-date filters in the SDK shape', () => {
    const filters = {
      ...EMPTY_FILTERS,
      minCastboxPlays: '1000',
      minCastboxSubscribers: '50',
      minItunesRatingCount: '20',
      minSpotifyRatingCount: '5',
      includePodcastIds: 'p1, p2',
      excludePodcastIds: 'p3',
      foundedSince: { unit: 'years' as const, value: 2 },
      hasSocials: ['youtube' as const],
      pageSize: '50',
    };
    const built = buildSearchBody(state({ filters }), 'free');
    if (!built.ok) throw new Error(built.error);
    expect(built.body).toMatchObject({
      minCastboxPlays: 1000,
      minCastboxSubscribers: 50,
      minItunesRatingCount: 20,
      minSpotifyRatingCount: 5,
      includePodcastIds: ['p1', 'p2'],
      excludePodcastIds: ['p3'],
      foundedSince: { type: 'relative', unit: 'years', value: 2 },
    });
    // Socials are paid only and the page size admin only (SPEC §6).
    expect(built.body).not.toHaveProperty('hasSocials');
    expect(built.body).not.toHaveProperty('pageSize');
    expect(conforms(built.body, PODCAST_BODY)).toEqual([]);
    const paid = buildSearchBody(state({ filters }), 'agency');
    expect(paid.ok && paid.body).toHaveProperty('hasSocials', ['youtube']);
    expect(paid.ok && paid.body).not.toHaveProperty('pageSize');
    const admin = buildSearchBody(state({ filters }), 'admin');
    expect(admin.ok && admin.body).toHaveProperty('pageSize', 50);
  });

  it('sends a custom date as the custom date filter and drops an unfinished one', () => {
    const custom = buildSearchBody(state({ filters: { ...EMPTY_FILTERS, lastEpisodeDateSince: { custom: '2024-01-01' } } }), 'public');
    expect(custom.ok && custom.body).toHaveProperty('lastEpisodeDateSince', { type: 'custom', date: '2024-01-01' });
    const unfinished = buildSearchBody(state({ filters: { ...EMPTY_FILTERS, lastEpisodeDateSince: { custom: '' } } }), 'public');
    expect(unfinished.ok && unfinished.body).not.toHaveProperty('lastEpisodeDateSince');
  });

  it('refuses an empty search with the message of SPEC §5', () => {
    expect(buildSearchBody(state({ terms: [newTerm('')] }), 'free')).toEqual({ ok: false, error: 'At least one search term or filter is required.' });
  });

  it('refuses a one-character term and a term with nowhere to look', () => {
    expect(buildSearchBody(state({ terms: [newTerm('a')] }), 'free').ok).toBe(false);
    expect(buildSearchBody(state({ terms: [newTerm('ab', [])] }), 'free').ok).toBe(false);
  });

  it('runs in podcast mode unless an episode target or episode-only filter is set (SPEC §4)', () => {
    expect(searchModeOf(state())).toBe('podcasts');
    expect(searchModeOf(state({ terms: [newTerm('x y', ['episode-description'])] }))).toBe('episodes');
    expect(searchModeOf(state({ filters: { ...EMPTY_FILTERS, hasTranscript: true } }))).toBe('episodes');
    expect(searchModeOf(state({ filters: { ...EMPTY_FILTERS, includeEpisodeIds: 'e1' } }))).toBe('episodes');
    expect(searchModeOf(state({ filters: { ...EMPTY_FILTERS, foundedSince: { unit: 'years', value: 1 } } }))).toBe('podcasts');
  });

  it('sorts podcasts by authority score, and episodes (which have none) by relevance', () => {
    const byAuthority = (terms: ReturnType<typeof newTerm>[]) => buildSearchBody(state({ terms, sortField: 'authorityScore' }), 'free');
    const podcasts = byAuthority([newTerm('climate')]);
    expect(podcasts.ok && podcasts.body.sortOrder).toEqual([{ field: 'authorityScore', direction: 'desc' }]);
    const episodes = byAuthority([newTerm('climate', ['transcript'])]);
    expect(episodes.ok && episodes.body.sortOrder).toEqual([{ field: 'relevance', direction: 'desc' }]);
  });

  it('travels in a link and comes back the same; an edited link loses only what is unreadable', () => {
    const original = state({
      terms: [{ ...newTerm('carbon', ['transcript']), phraseMatch: true, matchMode: 'not' }],
      filters: { ...EMPTY_FILTERS, hasTranscript: true, publishedSince: { unit: 'days', value: 30 } as never, hasSocials: ['youtube'] as never },
      sortField: 'title',
      sortDirection: 'asc',
    });
    const back = formStateFromParam(formStateToParam(original))!;
    const withoutIds = (s: SearchFormState) => ({ ...s, terms: s.terms.map(({ id: _id, ...rest }) => rest) });
    expect(withoutIds(back)).toEqual(withoutIds(original));

    expect(formStateFromParam(null)).toBeNull();
    expect(formStateFromParam('not json')).toBeNull();
    expect(formStateFromParam('42')).toBeNull();
    const edited = formStateFromParam(
      JSON.stringify({ terms: [{ term: 'x y', targets: ['nowhere', 'podcast-title'], matchMode: 'sometimes' }, 7], filters: { hasTranscript: 'yes', languages: 'en', explicit: 'rude', bogus: 1 }, sort: ['price', 'up'] }),
    )!;
    expect(edited.terms.map(({ term, targets, matchMode }) => ({ term, targets, matchMode }))).toEqual([{ term: 'x y', targets: ['podcast-title'], matchMode: 'optional' }]);
    expect(edited.filters).toEqual({ ...EMPTY_FILTERS, languages: 'en' });
    expect([edited.sortField, edited.sortDirection]).toEqual(['relevance', 'desc']);
  });

  it('names what made it an episode search', () => {
    expect(searchModeReason(state())).toBeNull();
    expect(searchModeReason(state({ terms: [newTerm('x y', ['transcript'])] }))).toBe('a term looks in episodes or transcripts');
    expect(searchModeReason(state({ filters: { ...EMPTY_FILTERS, hasTranscript: true } }))).toMatch(/Has a transcript/);
    expect(searchModeReason(state({ filters: { ...EMPTY_FILTERS, includeEpisodeIds: 'e1' } }))).toBe('episode ids are set');
  });
});

describe('saved filters read back into the form', () => {
  // Written by hand in the wire names of the SDK's search options.
  const saved = {
    languages: ['en', 'fr'],
    includeItunesGenres: ['technology'],
    explicit: 'clean',
    foundedSince: { type: 'relative', unit: 'years', value: 2 },
    publishedSince: { type: 'custom', date: '2024-03-01' },
    hasTranscript: true,
    minItunesRating: 4.5,
    minTotalEpisodes: 10,
    podcastCountries: ['us'],
    hasSocials: ['youtube', 'bluesky'],
    podcastHasGuests: true,
  };

  it('gives back the same filters when written again', () => {
    expect(activeFilters(filtersFromWire(saved), 'episodes')).toEqual(saved);
  });

  it('shows lists and numbers as the form types them', () => {
    const inputs = filtersFromWire(saved);
    expect(inputs.languages).toBe('en, fr');
    expect(inputs.minItunesRating).toBe('4.5');
    expect(inputs.foundedSince).toEqual({ unit: 'years', value: 2 });
    expect(inputs.publishedSince).toEqual({ custom: '2024-03-01' });
  });

  it('ignores unknown names and malformed values', () => {
    expect(filtersFromWire({ nonsense: 1, languages: 'en', explicit: 'maybe', foundedSince: { type: 'relative', unit: 'weeks', value: 1 }, hasSocials: ['myspace'] })).toEqual(EMPTY_FILTERS);
    expect(filtersFromWire(null)).toEqual(EMPTY_FILTERS);
  });
});
