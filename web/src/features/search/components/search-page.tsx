import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';

import { PageHeader } from '@/components/ui/page-header';
import { EmptyState, ErrorState, Spinner } from '@/components/ui/states';
import { useAuth } from '@/features/auth/use-auth';
import { usePreferences, type UserPreferences } from '@/features/settings/api/preferences';
import { MAX_RESULTS_PER_SEARCH } from '@/config/plans';
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
import { SearchForm } from './search-form';
import { SearchResults, type ResultsView } from './search-results';
import { SelectAllOnPage, SelectionBar, useHitSelection } from './result-selection';

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

/** Every search is written to the URL (`s`: terms, filters, sort; `q`: its first
 * words; `view`), replacing the entry so the page keeps its focus; a reload or a
 * shared link brings the search back. */
function SearchScreen({ preferences }: { preferences: UserPreferences | undefined }) {
  const [params, setParams] = useSearchParams();
  const { tier, signedIn } = useAuth();
  const q = params.get('q');
  const selectedProjectSlug = params.get('selected-project-slug') ?? undefined;
  const [fromUrl] = useState(() => formStateFromParam(params.get('s')));
  const [initial] = useState(() => fromUrl ?? initialState(q, preferences));
  const [request, setRequest] = useState<SearchRequest | null>(() => {
    if (!q && !fromUrl) return null;
    const built = buildSearchBody(initial, tier);
    return built.ok ? ({ mode: built.mode, body: built.body } as SearchRequest) : null;
  });
  const selection = useHitSelection();
  const onSearch = (built: { mode: SearchRequest['mode']; body: SearchRequest['body'] }, state: SearchFormState) => {
    setRequest({ mode: built.mode, body: built.body } as SearchRequest);
    selection.clear();
    const next = new URLSearchParams(params);
    const words = state.terms.map((term) => term.term.trim()).filter(Boolean)[0];
    if (words) next.set('q', words);
    else next.delete('q');
    next.set('s', formStateToParam(state));
    setParams(next, { replace: true });
  };
  const [view, setViewState] = useState<ResultsView>(() => {
    const fromParams = params.get('view');
    return fromParams === 'table' || fromParams === 'list' ? fromParams : (preferences?.search?.defaultResultsView ?? 'list');
  });
  const setView = (next: ResultsView) => {
    setViewState(next);
    const updated = new URLSearchParams(params);
    updated.set('view', next);
    setParams(updated, { replace: true });
  };
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
      <SearchForm
        initial={initial}
        tier={tier}
        filtersOpen={JSON.stringify(initial.filters) !== JSON.stringify(EMPTY_FILTERS)}
        searched={request !== null}
        onSearch={onSearch}
      />
      <div className="toolbar results-toolbar">
        {total ? (
          <span aria-live="polite">
            {formatNumber(total.value)}
            {total.relation === 'gte' ? '+' : ''} {request?.mode ?? 'results'} found
          </span>
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
        <EmptyState title="No results">Try other words, fewer filters, or more places to look.</EmptyState>
      ) : (
        <div className={selectedHits.length > 0 ? 'has-selection' : undefined}>
          {request.mode === 'podcasts' ? <SelectAllOnPage hits={podcastHits} selection={selection} /> : null}
          {/* Fixed to the window's foot; in the document it follows "Select all", so the
              keyboard reaches the actions right after the selection. */}
          {selectedHits.length > 0 ? (
            <SelectionBar hits={selectedHits} canAddToProject={signedIn} defaultProjectSlug={selectedProjectSlug} onClear={selection.clear} />
          ) : null}
          <SearchResults
            mode={request.mode}
            hits={hits}
            view={view}
            canAddToProject={signedIn}
            selectedProjectSlug={selectedProjectSlug}
            selection={request.mode === 'podcasts' ? selection : undefined}
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
