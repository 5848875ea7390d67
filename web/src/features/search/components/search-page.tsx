import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';

import { PageHeader } from '@/components/ui/page-header';
import { EmptyState, ErrorState, Spinner } from '@/components/ui/states';
import { useAuth } from '@/features/auth/use-auth';
import { usePreferences, type UserPreferences } from '@/features/settings/api/preferences';
import { MAX_RESULTS_PER_SEARCH, type PlanTier } from '@/config/plans';
import { paths } from '@/config/paths';
import { ApiClientError } from '@/lib/api-client';
import { formatNumber } from '@/lib/format';
import type { EpisodeHit, PodcastHit } from '@/lib/api-types';

import { useSearch, type SearchRequest } from '../api/search';
import {
  buildSearchBody,
  EMPTY_FILTERS,
  filtersFromWire,
  formStateFromParam,
  formStateToParam,
  newTerm,
  type SearchFormState,
} from '../search-form-state';
import { NoResults } from './no-results';
import { SearchModeNote } from './search-mode-note';
import { SearchForm } from './search-form';
import { SearchResults, type ResultsView } from './search-results';
import { SelectAllShown, SelectionBar, useHitSelection } from './result-selection';

const searchKey = (s: string | null, q: string | null) => JSON.stringify([s, q]);

function initialState(q: string | null, preferences: UserPreferences | undefined): SearchFormState {
  const filters = preferences?.search?.defaultSearchFilters ? filtersFromWire(preferences.search.defaultSearchFilters) : EMPTY_FILTERS;
  return { terms: [newTerm(q ?? '')], filters, sortField: 'relevance', sortDirection: 'desc' };
}

/** A search refused by the plan's search limit (429): the limit as the server words
 * it, and what raises it — an account for a signed-out visitor, a plan for a user.
 * Retrying at once would be refused again, so there is no "Try again". */
function SearchLimitReached({ error, signedIn }: { error: ApiClientError; signedIn: boolean }) {
  return (
    <div className="state state-error" role="alert">
      <p className="state-title">Search limit reached</p>
      <p>{error.displayMessage}</p>
      {signedIn ? (
        <p>
          <Link to={paths.pricing.pattern}>Compare plans</Link> for more searches.
        </p>
      ) : (
        <p>
          <Link className="button" to={paths.signUp.pattern}>
            Create a free account
          </Link>{' '}
          for more searches, or <Link to={paths.signIn.pattern}>sign in</Link>.
        </p>
      )}
    </div>
  );
}

/** Calls `onVisible` when the sentinel scrolls into view: infinite scroll on the cursor. */
function useInfiniteScroll(onVisible: () => void, enabled: boolean) {
  const ref = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    const node = ref.current;
    if (!node || !enabled || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) onVisible();
    }, { rootMargin: '400px' });
    observer.observe(node);
    return () => observer.disconnect();
  }, [onVisible, enabled]);
  return ref;
}

/** The search screen; a signed-in user's saved preferences (results view, default filters) are read first. */
export function SearchPage() {
  const { signedIn } = useAuth();
  const preferences = usePreferences(signedIn);
  if (signedIn && preferences.isPending) return <Spinner label="Loading your search preferences…" />;
  return <SearchScreen preferences={preferences.data} />;
}

/** The search the address holds: the form from `s` (else `q` with the user's default
 * filters), and its request when there is one to run. */
function searchFromParams(s: string | null, q: string | null, preferences: UserPreferences | undefined, tier: PlanTier) {
  const fromUrl = formStateFromParam(s);
  const state = fromUrl ?? initialState(q, preferences);
  if (!q && !fromUrl) return { state, request: null };
  const built = buildSearchBody(state, tier);
  return { state, request: built.ok ? ({ mode: built.mode, body: built.body } as SearchRequest) : null };
}

/** Every search run (from the form, a sort change or a suggestion) is a history entry
 * (`s`: terms, filters, sort; `q`: its first words), so Back and Forward walk through
 * earlier searches and a reload or a shared link brings one back; the results view
 * (`view`) replaces the entry, as it is not a search. */
function SearchScreen({ preferences }: { preferences: UserPreferences | undefined }) {
  const [params, setParams] = useSearchParams();
  const { tier, signedIn } = useAuth();
  const q = params.get('q');
  const s = params.get('s');
  const selectedProjectSlug = params.get('selected-project-slug') ?? undefined;
  const { state: searched, request } = useMemo(() => searchFromParams(s, q, preferences, tier), [s, q, preferences, tier]);
  const selection = useHitSelection();

  // The form keeps what is typed; it starts again from the address only when the search
  // there changed by other means than its own submit (Back, Forward, a suggestion, a link).
  const urlKey = searchKey(s, q);
  const [shownKey, setShownKey] = useState(urlKey);
  const [formKey, setFormKey] = useState(0);
  const [submittedKey, setSubmittedKey] = useState<string | null>(null);
  // Filters shown at first when the search has some; then as the user left them.
  const [filtersOpen, setFiltersOpen] = useState(() => JSON.stringify(searched.filters) !== JSON.stringify(EMPTY_FILTERS));
  if (shownKey !== urlKey) {
    setShownKey(urlKey);
    setSubmittedKey(null);
    if (urlKey !== submittedKey) setFormKey(formKey + 1);
    selection.clear();
  }

  const runSearch = (state: SearchFormState, fromForm: boolean) => {
    const next = new URLSearchParams(params);
    const words = state.terms.map((term) => term.term.trim()).filter(Boolean)[0];
    if (words) next.set('q', words);
    else next.delete('q');
    next.set('s', formStateToParam(state));
    const key = searchKey(next.get('s'), next.get('q'));
    if (key === urlKey) return;
    if (fromForm) setSubmittedKey(key);
    // The same request again (a `q` link searched as it came) is not another step back.
    const built = buildSearchBody(state, tier);
    const same = built.ok && request !== null && built.mode === request.mode && JSON.stringify(built.body) === JSON.stringify(request.body);
    setParams(next, { replace: same });
  };

  const view: ResultsView = params.get('view') === 'table' || params.get('view') === 'list'
    ? (params.get('view') as ResultsView)
    : (preferences?.search?.defaultResultsView ?? 'list');
  const setView = (next: ResultsView) => {
    const updated = new URLSearchParams(params);
    updated.set('view', next);
    setParams(updated, { replace: true });
  };

  // A search that replaced what had focus (a suggestion, Back or Forward) puts it on the
  // results heading, or on the first term when there is no search; a search from the form
  // leaves it where it was.
  const headingRef = useRef<HTMLHeadingElement | null>(null);
  const focusedKey = useRef(urlKey);
  useEffect(() => {
    if (focusedKey.current === urlKey) return;
    focusedKey.current = urlKey;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    if (headingRef.current) headingRef.current.focus();
    else document.querySelector<HTMLInputElement>('.search-form input[type="search"]')?.focus();
  }, [urlKey]);

  const search = useSearch(request);
  const pages = search.data?.pages ?? [];
  const hits = pages.flatMap((page) => page.result.hits as (PodcastHit | EpisodeHit)[]);
  const total = pages[0]?.result.total;
  const podcastHits = request?.mode === 'podcasts' ? (hits as PodcastHit[]) : [];
  const selectedHits = podcastHits.filter((hit) => selection.selected.has(hit.podcastId));
  const loadMore = () => {
    if (search.hasNextPage && !search.isFetchingNextPage) void search.fetchNextPage();
  };
  const sentinel = useInfiniteScroll(loadMore, Boolean(search.hasNextPage));

  return (
    <div>
      <PageHeader
        title="Search"
        lead={
          signedIn ? (
            <>Find podcasts and episodes by title, description or transcript.</>
          ) : (
            <>
              Signed out: searches return at most {MAX_RESULTS_PER_SEARCH.public} results.{' '}
              <Link to={paths.signIn.pattern}>Sign in</Link> for more.
            </>
          )
        }
      />
      <SearchModeNote />
      <SearchForm
        key={formKey}
        initial={searched}
        tier={tier}
        filtersOpen={filtersOpen}
        onFiltersOpenChange={setFiltersOpen}
        searched={request !== null}
        onSearch={(_built, state) => runSearch(state, true)}
      />
      <div className="toolbar results-toolbar">
        {request !== null ? (
          <h2 className="results-heading" tabIndex={-1} ref={headingRef}>
            <span aria-live="polite">
              {total ? (
                <>
                  {formatNumber(total.value)}
                  {total.relation === 'gte' ? '+' : ''} {request.mode} found
                </>
              ) : (
                'Results'
              )}
            </span>
          </h2>
        ) : (
          <span />
        )}
        <div role="group" aria-label="Results view" className="segmented">
          <button type="button" aria-pressed={view === 'list'} onClick={() => setView('list')}>
            List
          </button>
          <button type="button" aria-pressed={view === 'table'} onClick={() => setView('table')}>
            Table
          </button>
        </div>
      </div>
      {request === null ? (
        <EmptyState title="Start with a word or two">Choose where to look: podcast titles and descriptions, episodes, or transcripts.</EmptyState>
      ) : search.isPending ? (
        <Spinner label="Searching…" />
      ) : search.isError && search.error instanceof ApiClientError && search.error.httpStatus === 429 ? (
        <SearchLimitReached error={search.error} signedIn={signedIn} />
      ) : search.isError ? (
        <ErrorState error={search.error} onRetry={() => void search.refetch()} />
      ) : hits.length === 0 ? (
        <NoResults state={searched} tier={tier} onSearch={(state) => runSearch(state, false)} />
      ) : (
        <div className={selectedHits.length > 0 ? 'has-selection' : undefined}>
          {request.mode === 'podcasts' ? <SelectAllShown hits={podcastHits} selection={selection} /> : null}
          {/* Fixed to the window's foot; in the document it follows "Select all", so the
              keyboard reaches the actions right after the selection. */}
          {selectedHits.length > 0 ? (
            <SelectionBar
              hits={selectedHits}
              canAddToProject={signedIn}
              defaultProjectSlug={selectedProjectSlug}
              onClear={selection.clear}
              searchId={pages[0]?.searchId}
              tier={tier}
            />
          ) : null}
          <SearchResults
            mode={request.mode}
            hits={hits}
            view={view}
            canAddToProject={signedIn}
            selectedProjectSlug={selectedProjectSlug}
            selection={request.mode === 'podcasts' ? selection : undefined}
            tier={tier}
          />
          <div ref={sentinel} aria-hidden="true" />
          {search.isFetchingNextPage ? <Spinner label="Loading more results…" /> : null}
          {search.hasNextPage && !search.isFetchingNextPage ? (
            <button type="button" className="button button-secondary" onClick={loadMore}>
              Load more results
            </button>
          ) : null}
        </div>
      )}
    </div>
  );
}
