import { useState, type FormEvent } from 'react';

import { EmptyState, ErrorState, NotAvailable, Spinner } from '@/components/ui/states';
import { useAuth } from '@/features/auth/use-auth';
import { EXPORT_COLUMNS, useProjects } from '@/features/projects/api/projects';
import { FiltersPanel } from '@/features/search/components/filters-panel';
import { activeFilters, filtersFromWire, type FilterInputs } from '@/features/search/search-form-state';
import { planAllowsFilter, type SearchFilterName } from '@/config/plans';
import { ApiClientError, errorText } from '@/lib/api-client';

import { usePreferences, useSavePreferences, withFavoriteProjects, withSearch, type ResultsViewPreference, type UserPreferences } from '../api/preferences';

/** The saved filters the plan allows, in their wire form (an empty set is saved as none). */
export function savedFilters(filters: FilterInputs, tier: Parameters<typeof planAllowsFilter>[0]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(activeFilters(filters, 'episodes')).filter(([name]) => planAllowsFilter(tier, name as SearchFilterName)));
}

/** /app/user-settings/preferences: how search results show, default filters, export columns and favourite projects. */
export function PreferencesSection() {
  const query = usePreferences();
  if (query.isPending) return <Spinner label="Loading your preferences…" />;
  if (query.isError) {
    if (query.error instanceof ApiClientError && query.error.isNotAvailable) return <NotAvailable feature="Preferences" />;
    return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  }
  return <PreferencesForm stored={query.data} />;
}

function PreferencesForm({ stored }: { stored: UserPreferences }) {
  const { tier } = useAuth();
  const save = useSavePreferences();
  const projects = useProjects();
  const [view, setView] = useState<ResultsViewPreference>(stored.search?.defaultResultsView ?? 'list');
  const [filters, setFilters] = useState<FilterInputs>(() => filtersFromWire(stored.search?.defaultSearchFilters));
  const [showFilters, setShowFilters] = useState(Object.keys(stored.search?.defaultSearchFilters ?? {}).length > 0);
  const [leftOut, setLeftOut] = useState<string[]>(stored.search?.export?.columnsToNotExport ?? []);
  const [favorites, setFavorites] = useState<string[]>(stored.projects?.favoriteProjectIds ?? []);
  const [saved, setSaved] = useState(false);

  const toggle = (list: string[], item: string, on: boolean) => (on ? [...list, item] : list.filter((value) => value !== item));

  function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    const defaults = savedFilters(filters, tier);
    const next = withSearch(withFavoriteProjects(stored, favorites), {
      defaultResultsView: view,
      defaultSearchFilters: defaults,
      export: { ...stored.search?.export, columnsToNotExport: leftOut },
    });
    save.mutate(next, { onSuccess: () => setSaved(true) });
  }

  return (
    <form className="stack" onSubmit={submit} aria-label="Preferences">
      <fieldset className="prefs-group">
        <legend>Search results</legend>
        <p className="muted">How the search page shows results when it opens.</p>
        <div className="toolbar" role="radiogroup" aria-label="Default results view">
          {(['list', 'table'] as const).map((value) => (
            <label key={value} className="checkbox">
              <input type="radio" name="results-view" value={value} checked={view === value} onChange={() => setView(value)} />
              {value === 'list' ? 'List' : 'Table'}
            </label>
          ))}
        </div>
      </fieldset>

      <fieldset className="prefs-group">
        <legend>Default search filters</legend>
        <p className="muted">Filters the search page starts with; you can still change them for one search.</p>
        <button type="button" className="button button-ghost button-small" aria-expanded={showFilters} onClick={() => setShowFilters(!showFilters)}>
          {showFilters ? 'Hide filters' : 'Choose filters'}
        </button>
        {showFilters ? <FiltersPanel filters={filters} onChange={setFilters} tier={tier} /> : null}
      </fieldset>

      <fieldset className="prefs-group">
        <legend>Columns to leave out of exports</legend>
        <p className="muted">Unticked by default when you export a project&apos;s podcasts.</p>
        <div className="checkbox-grid">
          {EXPORT_COLUMNS.map((column) => (
            <label key={column.value} className="checkbox">
              <input
                type="checkbox"
                checked={leftOut.includes(column.value)}
                onChange={(event) => setLeftOut(toggle(leftOut, column.value, event.target.checked))}
              />
              {column.label}
            </label>
          ))}
        </div>
      </fieldset>

      <fieldset className="prefs-group">
        <legend>Favourite projects</legend>
        <p className="muted">Listed first on the projects page (the same as pinning them there).</p>
        {projects.isPending ? (
          <Spinner label="Loading projects…" />
        ) : projects.isError ? (
          <ErrorState error={projects.error} />
        ) : projects.data.projects.length === 0 ? (
          <EmptyState title="No projects yet" />
        ) : (
          <div className="checkbox-grid">
            {projects.data.projects.map((project) => (
              <label key={project.projectId} className="checkbox">
                <input
                  type="checkbox"
                  checked={favorites.includes(project.projectId)}
                  onChange={(event) => setFavorites(toggle(favorites, project.projectId, event.target.checked))}
                />
                {project.name}
              </label>
            ))}
          </div>
        )}
      </fieldset>

      {save.isError ? (
        <p className="form-error" role="alert">
          {errorText(save.error)}
        </p>
      ) : null}
      {saved && !save.isPending ? <p role="status">Preferences saved.</p> : null}
      <div>
        <button type="submit" className="button" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save preferences'}
        </button>
      </div>
    </form>
  );
}
