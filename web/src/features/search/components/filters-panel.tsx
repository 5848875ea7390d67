import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { paths } from '@/config/paths';
import { lowestTierWithFilter, planAllowsFilter, type PlanTier, type SearchFilterName } from '@/config/plans';

import type { FilterInputs, RelativeDateInput } from '../search-form-state';

type FieldProps = {
  name: SearchFilterName;
  label: string;
  tier: PlanTier;
  children: (disabled: boolean) => ReactNode;
};

function FilterField({ name, label, tier, children }: FieldProps) {
  const allowed = planAllowsFilter(tier, name);
  return (
    <div className={`filter${allowed ? '' : ' filter-locked'}`} data-filter={name}>
      <span className="filter-label">
        {label}
        {allowed ? null : (
          <span className="upgrade-hint">
            {' '}
            <span aria-hidden="true">🔒</span>{' '}
            <Link to={tier === 'public' ? paths.signUp.pattern : paths.pricing.pattern}>
              {tier === 'public' ? 'Sign up' : 'Upgrade'}
            </Link>{' '}
            ({lowestTierWithFilter(name)} plan)
          </span>
        )}
      </span>
      {children(!allowed)}
    </div>
  );
}

type Props = { filters: FilterInputs; onChange: (filters: FilterInputs) => void; tier: PlanTier };

/** Every filter; those the plan lacks are shown disabled with an upgrade hint. */
export function FiltersPanel({ filters, onChange, tier }: Props) {
  const set = <K extends keyof FilterInputs>(key: K, value: FilterInputs[K]) => onChange({ ...filters, [key]: value });

  const text = (key: 'languages' | 'includeItunesGenres' | 'excludeItunesGenres' | 'podcastCountries', placeholder: string) =>
    (disabled: boolean) => (
      <input type="text" value={filters[key]} placeholder={placeholder} disabled={disabled} aria-label={key} onChange={(event) => set(key, event.target.value)} />
    );
  const number = (key: 'minTotalEpisodes' | 'maxTotalEpisodes' | 'minItunesRating' | 'minSpotifyRating', props: { min: number; max?: number; step?: number }) =>
    (disabled: boolean) => (
      <input type="number" inputMode="decimal" value={filters[key]} disabled={disabled} aria-label={key} onChange={(event) => set(key, event.target.value)} {...props} />
    );
  const relative = (key: 'lastEpisodeDateSince' | 'publishedSince') => (disabled: boolean) => (
    <select
      aria-label={key}
      disabled={disabled}
      value={filters[key] ? `${filters[key].value}:${filters[key].unit}` : ''}
      onChange={(event) => {
        const [value, unit] = event.target.value.split(':');
        set(key, event.target.value ? ({ value: Number(value), unit } as RelativeDateInput) : null);
      }}
    >
      <option value="">Any time</option>
      <option value="24:hours">Last 24 hours</option>
      <option value="7:days">Last 7 days</option>
      <option value="1:months">Last month</option>
      <option value="6:months">Last 6 months</option>
      <option value="1:years">Last year</option>
    </select>
  );
  const checkbox = (key: 'hasTranscript' | 'hasPrimaryContact' | 'podcastHasGuests', label: string) => (disabled: boolean) => (
    <label className="checkbox">
      <input type="checkbox" checked={filters[key]} disabled={disabled} onChange={(event) => set(key, event.target.checked)} />
      {label}
    </label>
  );

  return (
    <div className="filters" role="group" aria-label="Filters">
      <FilterField tier={tier} name="languages" label="Languages">{text('languages', 'en, fr')}</FilterField>
      <FilterField tier={tier} name="includeItunesGenres" label="Genres to include">{text('includeItunesGenres', 'technology, news')}</FilterField>
      <FilterField tier={tier} name="excludeItunesGenres" label="Genres to exclude">{text('excludeItunesGenres', 'comedy')}</FilterField>
      <FilterField tier={tier} name="explicit" label="Explicit content">
        {(disabled) => (
          <select aria-label="explicit" value={filters.explicit} disabled={disabled} onChange={(event) => set('explicit', event.target.value as FilterInputs['explicit'])}>
            <option value="">Any</option>
            <option value="clean">Clean only</option>
            <option value="explicit">Explicit only</option>
          </select>
        )}
      </FilterField>
      <FilterField tier={tier} name="lastEpisodeDateSince" label="Active since">{relative('lastEpisodeDateSince')}</FilterField>
      <FilterField tier={tier} name="publishedSince" label="Episode published">{relative('publishedSince')}</FilterField>
      <FilterField tier={tier} name="hasTranscript" label="Transcripts">{checkbox('hasTranscript', 'Has a transcript')}</FilterField>
      <FilterField tier={tier} name="minTotalEpisodes" label="Min episodes">{number('minTotalEpisodes', { min: 0 })}</FilterField>
      <FilterField tier={tier} name="maxTotalEpisodes" label="Max episodes">{number('maxTotalEpisodes', { min: 1 })}</FilterField>
      <FilterField tier={tier} name="minItunesRating" label="Min Apple rating">{number('minItunesRating', { min: 0, max: 5, step: 0.1 })}</FilterField>
      <FilterField tier={tier} name="minSpotifyRating" label="Min Spotify rating">{number('minSpotifyRating', { min: 0, max: 5, step: 0.1 })}</FilterField>
      <FilterField tier={tier} name="podcastCountries" label="Countries">{text('podcastCountries', 'us, gb')}</FilterField>
      <FilterField tier={tier} name="hasPrimaryContact" label="Contact">{checkbox('hasPrimaryContact', 'Has a primary contact')}</FilterField>
      <FilterField tier={tier} name="podcastHasGuests" label="Guests">{checkbox('podcastHasGuests', 'Has guests')}</FilterField>
    </div>
  );
}
