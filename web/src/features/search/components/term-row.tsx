import type { MatchMode, SearchTarget } from '@/lib/api-types';

import { MATCH_MODES, SEARCH_TARGETS, type TermInput } from '../search-form-state';

type Props = {
  term: TermInput;
  index: number;
  onChange: (term: TermInput) => void;
  onRemove?: () => void;
};

export function TermRow({ term, index, onChange, onRemove }: Props) {
  const toggleTarget = (target: SearchTarget, on: boolean) =>
    onChange({ ...term, targets: on ? [...term.targets, target] : term.targets.filter((t) => t !== target) });
  return (
    <fieldset className="term-row">
      <legend className="visually-hidden">Search term {index + 1}</legend>
      <div className="term-main">
        <label className="field grow">
          <span className="visually-hidden">Term {index + 1}</span>
          <input
            type="search"
            placeholder="Words to find, e.g. climate policy"
            value={term.term}
            onChange={(event) => onChange({ ...term, term: event.target.value })}
            name={`term-${index}`}
            aria-label={`Search term ${index + 1}`}
          />
        </label>
        <label className="field">
          <span className="visually-hidden">Match mode</span>
          <select
            value={term.matchMode}
            onChange={(event) => onChange({ ...term, matchMode: event.target.value as MatchMode })}
            aria-label={`Match mode of term ${index + 1}`}
          >
            {MATCH_MODES.map((mode) => (
              <option key={mode.value} value={mode.value}>
                {mode.label}
              </option>
            ))}
          </select>
        </label>
        {onRemove ? (
          <button type="button" className="button button-ghost" onClick={onRemove} aria-label={`Remove term ${index + 1}`}>
            ✕
          </button>
        ) : null}
      </div>
      <div className="term-targets" role="group" aria-label={`Where to look for term ${index + 1}`}>
        {SEARCH_TARGETS.map((target) => (
          <label key={target.value} className="checkbox">
            <input
              type="checkbox"
              checked={term.targets.includes(target.value)}
              onChange={(event) => toggleTarget(target.value, event.target.checked)}
            />
            {target.label}
          </label>
        ))}
        <label className="checkbox">
          <input type="checkbox" checked={term.phraseMatch} onChange={(event) => onChange({ ...term, phraseMatch: event.target.checked })} />
          Exact phrase
        </label>
      </div>
    </fieldset>
  );
}
