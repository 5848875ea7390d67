import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';

import { LockIcon } from '@/components/ui/lock-icon';
import { paths } from '@/config/paths';
import { lowestTierWithFilter, planAllowsFilter, type PlanTier, type SearchFilterName } from '@/config/plans';
import { socialLabel } from '@/features/podcasts/labels';

import { useSearchFacets, type FacetCount } from '../api/facets';
import { SOCIAL_KINDS, type DateFilterInput, type FilterInputs } from '../search-form-state';
import { PickList, genreLabel, languageLabel } from './pick-list';

type Control = { disabled: boolean; label: string; describedBy: string | undefined };

type FieldProps = {
  name: SearchFilterName;
  label: string;
  tier: PlanTier;
  children: (control: Control) => ReactNode;
};

/** One filter: its control, or the control disabled with an upgrade hint when the plan lacks it. */
function FilterField({ name, label, tier, children }: FieldProps) {
  const allowed = planAllowsFilter(tier, name);
  const hintId = useId();
  return (
    <div className={`filter${allowed ? '' : ' filter-locked'}`} data-filter={name}>
      <span className="filter-label" aria-hidden="true">
        {label}
      </span>
      {children({ disabled: !allowed, label, describedBy: allowed ? undefined : hintId })}
      {allowed ? null : (
        <span className="upgrade-hint" id={hintId}>
          <LockIcon />{' '}
          <Link to={tier === 'public' ? paths.signUp.pattern : paths.pricing.pattern}>{tier === 'public' ? 'Sign up' : 'Upgrade'}</Link> to
          use this filter ({lowestTierWithFilter(name)} plan)
        </span>
      )}
    </div>
  );
}

const RELATIVE_CHOICES: { value: string; label: string }[] = [
  { value: '24:hours', label: 'Last 24 hours' },
  { value: '7:days', label: 'Last 7 days' },
  { value: '1:months', label: 'Last month' },
  { value: '6:months', label: 'Last 6 months' },
  { value: '1:years', label: 'Last year' },
  { value: '2:years', label: 'Last 2 years' },
  { value: '5:years', label: 'Last 5 years' },
];

const dateChoice = (input: DateFilterInput | null): string =>
  input === null ? '' : 'custom' in input ? 'custom' : `${input.value}:${input.unit}`;

/** A date filter: a relative window, or "Custom date" with a day picker (SPEC §5). */
function DateFilter({ value, onChange, control }: { value: DateFilterInput | null; onChange: (next: DateFilterInput | null) => void; control: Control }) {
  const choice = dateChoice(value);
  return (
    <>
      <select
        aria-label={control.label}
        aria-describedby={control.describedBy}
        disabled={control.disabled}
        value={choice}
        onChange={(event) => {
          const next = event.target.value;
          if (next === '') return onChange(null);
          if (next === 'custom') return onChange({ custom: '' });
          const [amount, unit] = next.split(':');
          onChange({ value: Number(amount), unit: unit as Extract<DateFilterInput, { unit: string }>['unit'] });
        }}
      >
        <option value="">Any time</option>
        {RELATIVE_CHOICES.map((item) => (
          <option key={item.value} value={item.value}>
            {item.label}
          </option>
        ))}
        <option value="custom">Since a date…</option>
      </select>
      {value !== null && 'custom' in value ? (
        <input
          type="date"
          aria-label={`${control.label}: date`}
          disabled={control.disabled}
          value={value.custom}
          onChange={(event) => onChange({ custom: event.target.value })}
        />
      ) : null}
    </>
  );
}

type Props = { filters: FilterInputs; onChange: (filters: FilterInputs) => void; tier: PlanTier };

/** Every filter of §6; those the plan lacks are shown disabled with an upgrade hint. */
export function FiltersPanel({ filters, onChange, tier }: Props) {
  const set = <K extends keyof FilterInputs>(key: K, value: FilterInputs[K]) => onChange({ ...filters, [key]: value });
  const [socialsOpen, setSocialsOpen] = useState(false);
  // The catalog's languages and genres; until they are read (or if they cannot be),
  // those filters are typed as text.
  const facets = useSearchFacets();

  type TextKey = 'languages' | 'includeItunesGenres' | 'excludeItunesGenres' | 'podcastCountries' | 'includePodcastIds' | 'excludePodcastIds' | 'includeEpisodeIds';
  const text = (key: TextKey, placeholder: string) => (control: Control) => (
    <input
      type="text"
      value={filters[key]}
      placeholder={placeholder}
      disabled={control.disabled}
      aria-label={control.label}
      aria-describedby={control.describedBy}
      onChange={(event) => set(key, event.target.value)}
    />
  );
  type NumberKey =
    | 'minTotalEpisodes'
    | 'maxTotalEpisodes'
    | 'minItunesRating'
    | 'minItunesRatingCount'
    | 'minSpotifyRating'
    | 'minSpotifyRatingCount'
    | 'minCastboxPlays'
    | 'minCastboxSubscribers'
    | 'pageSize';
  const number = (key: NumberKey, props: { min: number; max?: number; step?: number }) => (control: Control) => (
    <input
      type="number"
      inputMode={props.step && props.step < 1 ? 'decimal' : 'numeric'}
      value={filters[key]}
      disabled={control.disabled}
      aria-label={control.label}
      aria-describedby={control.describedBy}
      onChange={(event) => set(key, event.target.value)}
      {...props}
    />
  );
  const date = (key: 'foundedSince' | 'lastEpisodeDateSince' | 'publishedSince') => (control: Control) => (
    <DateFilter value={filters[key]} onChange={(next) => set(key, next)} control={control} />
  );
  const checkbox = (key: 'hasTranscript' | 'hasPrimaryContact' | 'podcastHasGuests', label: string) => (control: Control) => (
    <label className="checkbox">
      <input
        type="checkbox"
        checked={filters[key]}
        disabled={control.disabled}
        aria-describedby={control.describedBy}
        onChange={(event) => set(key, event.target.checked)}
      />
      {label}
    </label>
  );
  const pick = (key: 'languages' | 'includeItunesGenres' | 'excludeItunesGenres', options: FacetCount[] | undefined, labelOf: (value: string) => string, placeholder: string) =>
    options && options.length > 0
      ? (control: Control) => <PickList value={filters[key]} onChange={(next) => set(key, next)} options={options} labelOf={labelOf} control={control} />
      : text(key, placeholder);
  const idsSet = [filters.includePodcastIds, filters.excludePodcastIds, filters.includeEpisodeIds].some((value) => value.trim() !== '');
  // Open at first when ids are set; then as the user leaves it (clearing the last id
  // must not fold the section under the cursor).
  const [idsOpen, setIdsOpen] = useState(idsSet);
  const field = (name: SearchFilterName, label: string, control: (control: Control) => ReactNode) => (
    <FilterField tier={tier} name={name} label={label}>
      {control}
    </FilterField>
  );

  return (
    <div className="filters-groups" role="group" aria-label="Filters">
      <fieldset className="filters">
        <legend>Podcast</legend>
        {field('languages', 'Languages', pick('languages', facets.data?.languages, languageLabel, 'en, fr'))}
        {field('includeItunesGenres', 'Genres to include', pick('includeItunesGenres', facets.data?.genres, genreLabel, 'technology, news'))}
        {field('excludeItunesGenres', 'Genres to exclude', pick('excludeItunesGenres', facets.data?.genres, genreLabel, 'comedy'))}
        {field('explicit', 'Explicit content', (control) => (
          <select
            aria-label={control.label}
            aria-describedby={control.describedBy}
            value={filters.explicit}
            disabled={control.disabled}
            onChange={(event) => set('explicit', event.target.value as FilterInputs['explicit'])}
          >
            <option value="">Any</option>
            <option value="clean">Clean only</option>
            <option value="explicit">Explicit only</option>
          </select>
        ))}
        {field('foundedSince', 'Founded', date('foundedSince'))}
        {field('lastEpisodeDateSince', 'Active since', date('lastEpisodeDateSince'))}
        {field('minTotalEpisodes', 'Min episodes', number('minTotalEpisodes', { min: 0 }))}
        {field('maxTotalEpisodes', 'Max episodes', number('maxTotalEpisodes', { min: 1 }))}
      </fieldset>
      <fieldset className="filters">
        <legend>Episodes</legend>
        {field('publishedSince', 'Episode published', date('publishedSince'))}
        {field('hasTranscript', 'Transcripts', checkbox('hasTranscript', 'Has a transcript'))}
      </fieldset>
      <fieldset className="filters">
        <legend>Ratings and reach</legend>
        {field('minItunesRating', 'Min Apple rating', number('minItunesRating', { min: 0, max: 5, step: 0.1 }))}
        {field('minItunesRatingCount', 'Min Apple ratings count', number('minItunesRatingCount', { min: 1 }))}
        {field('minSpotifyRating', 'Min Spotify rating', number('minSpotifyRating', { min: 0, max: 5, step: 0.1 }))}
        {field('minSpotifyRatingCount', 'Min Spotify ratings count', number('minSpotifyRatingCount', { min: 1 }))}
        {field('minCastboxPlays', 'Min Castbox plays', number('minCastboxPlays', { min: 1 }))}
        {field('minCastboxSubscribers', 'Min Castbox subscribers', number('minCastboxSubscribers', { min: 1 }))}
      </fieldset>
      <fieldset className="filters">
        <legend>Contacts and audience</legend>
        {field('podcastCountries', 'Countries', text('podcastCountries', 'us, gb'))}
        {field('hasPrimaryContact', 'Contact', checkbox('hasPrimaryContact', 'Has a primary contact'))}
        {field('podcastHasGuests', 'Guests', checkbox('podcastHasGuests', 'Has guests'))}
        {field('hasSocials', 'Social profiles', (control) => (
          <div className="socials-filter">
            <button
              type="button"
              className="button button-ghost button-small"
              aria-expanded={socialsOpen}
              aria-label={`${control.label}: ${filters.hasSocials.length} chosen`}
              aria-describedby={control.describedBy}
              disabled={control.disabled}
              onClick={() => setSocialsOpen(!socialsOpen)}
            >
              {filters.hasSocials.length === 0 ? 'Any' : filters.hasSocials.map(socialLabel).join(', ')}
            </button>
            {socialsOpen && !control.disabled ? (
              <div className="checkbox-grid" role="group" aria-label={control.label}>
                {SOCIAL_KINDS.map((kind) => (
                  <label key={kind} className="checkbox">
                    <input
                      type="checkbox"
                      checked={filters.hasSocials.includes(kind)}
                      onChange={(event) =>
                        set('hasSocials', event.target.checked ? [...filters.hasSocials, kind] : filters.hasSocials.filter((k) => k !== kind))
                      }
                    />
                    {socialLabel(kind)}
                  </label>
                ))}
              </div>
            ) : null}
          </div>
        ))}
        {/* Only admin sets the page size (§6); other plans never see the control. */}
        {planAllowsFilter(tier, 'pageSize') ? field('pageSize', 'Page size', number('pageSize', { min: 1, max: 1000 })) : null}
      </fieldset>
      {/* Lists of ids are for API users and links from other pages: folded away unless set. */}
      <details className="filters filters-ids" open={idsOpen} onToggle={(event) => setIdsOpen(event.currentTarget.open)}>
        <summary>Podcast and episode ids</summary>
        {field('includePodcastIds', 'Only these podcast ids', text('includePodcastIds', 'id, id'))}
        {field('excludePodcastIds', 'Exclude podcast ids', text('excludePodcastIds', 'id, id'))}
        {field('includeEpisodeIds', 'Only these episode ids', text('includeEpisodeIds', 'id, id'))}
      </details>
    </div>
  );
}
