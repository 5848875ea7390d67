import { useState } from 'react';

import type { FacetCount } from '../api/facets';
import { list } from '../search-form-state';

type Control = { disabled: boolean; label: string; describedBy: string | undefined };

const languageNames = (() => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' });
  } catch {
    return null;
  }
})();

/** "English (en)" for a language subtag; the code alone when the browser has no name for it. */
export function languageLabel(code: string): string {
  let name: string | undefined;
  try {
    name = languageNames?.of(code);
  } catch {
    name = undefined;
  }
  return name && name.toLowerCase() !== code.toLowerCase() ? `${name} (${code})` : code;
}

/** "Society & culture" for a lowercased genre. */
export const genreLabel = (genre: string): string => (genre ? genre[0].toUpperCase() + genre.slice(1) : genre);

/**
 * A filter picked from the catalog's own values: the chosen ones as removable chips, and
 * a list of the others with how many podcasts have each, added with a button (a select
 * that acted on change would add a value at every arrow key in some browsers). The
 * filter's value stays the comma-separated text the rest of the form (and the URL) keeps.
 */
export function PickList({
  value,
  onChange,
  options,
  labelOf,
  control,
}: {
  value: string;
  onChange: (value: string) => void;
  options: FacetCount[];
  labelOf: (value: string) => string;
  control: Control;
}) {
  const chosen = list(value);
  const chosenKeys = new Set(chosen.map((item) => item.toLowerCase()));
  const set = (values: string[]) => onChange(values.join(', '));
  const [picked, setPicked] = useState('');
  return (
    <div className="pick-list">
      {chosen.length > 0 ? (
        <ul className="chips" aria-label={`${control.label} chosen`}>
          {chosen.map((item) => (
            <li key={item} className="chip">
              {labelOf(item)}
              <button
                type="button"
                className="chip-remove"
                aria-label={`Remove ${labelOf(item)}`}
                disabled={control.disabled}
                onClick={() => set(chosen.filter((other) => other !== item))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="pick-list-add">
        <select
          aria-label={control.label}
          aria-describedby={control.describedBy}
          disabled={control.disabled}
          value={picked}
          onChange={(event) => setPicked(event.target.value)}
        >
          <option value="">{chosen.length > 0 ? 'Add another…' : 'Any'}</option>
          {options
            .filter((option) => !chosenKeys.has(option.value.toLowerCase()))
            .map((option) => (
              <option key={option.value} value={option.value}>
                {labelOf(option.value)} · {option.count.toLocaleString('en')}
              </option>
            ))}
        </select>
        <button
          type="button"
          className="button button-ghost button-small"
          aria-label={`Add to ${control.label}`}
          disabled={control.disabled || picked === ''}
          onClick={() => {
            set([...chosen, picked]);
            setPicked('');
          }}
        >
          Add
        </button>
      </div>
    </div>
  );
}
