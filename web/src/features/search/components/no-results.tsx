import type { PlanTier } from '@/config/plans';

import { useWordSuggestions } from '../api/autocomplete';
import { filterChipText, narrowingFilters, nextSteps, spellingStep, wordsToCheck } from '../no-results-suggestions';
import type { SearchFormState } from '../search-form-state';

type Props = {
  /** The search that found nothing, as the form held it. */
  state: SearchFormState;
  tier: PlanTier;
  /** Runs a changed search (a new history entry, like a search from the form). */
  onSearch: (state: SearchFormState) => void;
};

const searchedFor = (state: SearchFormState) =>
  state.terms
    .map((term) => term.term.trim())
    .filter(Boolean)
    .map((term) => `“${term}”`)
    .join(', ');

/** A search that found nothing: says so, then offers the same search changed one way
 * at a time, each a button that runs it. */
export function NoResults({ state, tier, onSearch }: Props) {
  const words = wordsToCheck(state);
  const lookups = useWordSuggestions(words);
  const spelling = spellingStep(state, words, lookups.answers, tier);
  const steps = nextSteps(state, tier);
  const chips = steps.filter((step) => step.kind === 'without-filter');
  const actions = steps.filter((step) => step.kind !== 'without-filter');
  const filters = narrowingFilters(state, tier);
  const terms = searchedFor(state);
  const filtersText =
    filters.length === 0 ? '' : filters.length === 1 ? `with the filter ${filterChipText(filters[0].name, filters[0].value)}` : `with ${filters.length} filters`;

  return (
    <section className="state state-empty no-results" aria-labelledby="no-results-title">
      <h3 className="state-title" id="no-results-title">
        No results
      </h3>
      <p>
        Nothing was found{terms ? <> for {terms}</> : null}
        {filtersText ? ` ${filtersText}` : null}.
      </p>
      {spelling ? (
        <p className="did-you-mean">
          <button type="button" className="button button-secondary" onClick={() => onSearch(spelling.state)}>
            {spelling.label}
          </button>
        </p>
      ) : null}
      {actions.length > 0 ? (
        <>
          <p className="next-steps-title">{spelling ? 'Or try:' : 'Try:'}</p>
          <ul className="next-steps">
            {actions.map((step) => (
              <li key={step.kind}>
                <button type="button" className="button button-secondary button-small" onClick={() => onSearch(step.state)}>
                  {step.label}
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : spelling ? null : (
        <p>Try other words, fewer filters, or more places to look.</p>
      )}
      {chips.length > 0 ? (
        <div className="filter-chips">
          <p className="next-steps-title" id="no-results-filters">
            Or drop one filter:
          </p>
          <ul className="next-steps" aria-labelledby="no-results-filters">
            {chips.map((step) => (
              <li key={step.label}>
                <button type="button" className="chip" aria-label={`Search again without ${step.label}`} onClick={() => onSearch(step.state)}>
                  {step.label}
                  <span aria-hidden="true" className="chip-remove">
                    ×
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
