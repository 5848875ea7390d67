import { useState, type FormEvent } from 'react';

import type { PlanTier } from '@/config/plans';
import type { SortField } from '@/lib/api-types';

import { FiltersPanel } from './filters-panel';
import { TermRow } from './term-row';
import {
  buildSearchBody,
  newTerm,
  searchModeOf,
  searchModeReason,
  SORT_FIELDS,
  type BuiltSearch,
  type SearchFormState,
} from '../search-form-state';

type Props = {
  initial: SearchFormState;
  tier: PlanTier;
  onSearch: (search: Extract<BuiltSearch, { ok: true }>, state: SearchFormState) => void;
  /** Opens the filters at first (when saved default filters are applied). */
  filtersOpen?: boolean;
  /** Told when the filters are shown or hidden, so a form started again keeps them so. */
  onFiltersOpenChange?: (open: boolean) => void;
  /** A search has run: changing the sort runs it again at once. */
  searched?: boolean;
};

/** Terms with targets and match modes, the plan's filters, and the sort. */
export function SearchForm({ initial, tier, onSearch, filtersOpen = false, onFiltersOpenChange, searched = false }: Props) {
  const [state, setState] = useState<SearchFormState>(initial);
  const [error, setError] = useState<string | null>(null);
  const [showFilters, setShowFilters] = useState(filtersOpen);
  const mode = searchModeOf(state);
  const reason = searchModeReason(state);

  function run(next: SearchFormState) {
    const built = buildSearchBody(next, tier);
    if (!built.ok) {
      setError(built.error);
      return;
    }
    setError(null);
    onSearch(built, next);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    run(state);
  }

  function toggleFilters(open: boolean) {
    setShowFilters(open);
    onFiltersOpenChange?.(open);
  }

  function changeSort(next: SearchFormState) {
    setState(next);
    if (searched) run(next);
  }

  return (
    <form className="search-form card" onSubmit={submit} role="search" aria-label="Search podcasts and episodes">
      {state.terms.map((term, index) => (
        <TermRow
          key={term.id}
          term={term}
          index={index}
          onChange={(next) => setState({ ...state, terms: state.terms.map((t) => (t.id === term.id ? next : t)) })}
          onRemove={state.terms.length > 1 ? () => setState({ ...state, terms: state.terms.filter((t) => t.id !== term.id) }) : undefined}
        />
      ))}
      <div className="toolbar">
        <button type="button" className="button button-ghost" onClick={() => setState({ ...state, terms: [...state.terms, newTerm()] })}>
          + Add a term
        </button>
        <button type="button" className="button button-ghost" aria-expanded={showFilters} onClick={() => toggleFilters(!showFilters)}>
          {showFilters ? 'Hide filters' : 'Filters'}
        </button>
        <label className="field inline">
          <span>Sort by</span>
          <select value={state.sortField} onChange={(event) => changeSort({ ...state, sortField: event.target.value as SortField })}>
            {SORT_FIELDS.map((field) => (
              <option key={field.value} value={field.value} disabled={mode === 'episodes' && field.podcastOnly}>
                {field.label}
                {field.podcastOnly ? ' (podcasts)' : ''}
              </option>
            ))}
          </select>
        </label>
        <label className="field inline">
          <span className="visually-hidden">Direction</span>
          <select aria-label="Sort direction" value={state.sortDirection} onChange={(event) => changeSort({ ...state, sortDirection: event.target.value as 'asc' | 'desc' })}>
            <option value="desc">Descending</option>
            <option value="asc">Ascending</option>
          </select>
        </label>
        <span className="muted" aria-live="polite">
          Searching {mode === 'episodes' ? 'episodes' : 'podcasts'}
          {reason ? <> ({reason})</> : null}
        </span>
        <button type="submit" className="button">
          Search
        </button>
      </div>
      {showFilters ? <FiltersPanel filters={state.filters} onChange={(filters) => setState({ ...state, filters })} tier={tier} /> : null}
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
