import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';

import { links } from '@/config/paths';

import { MIN_TERM_LENGTH } from '../search-form-state';
import { SearchModeNote } from './search-mode-note';

/** The home page's search box: opens the search screen with the words. */
export function HomeSearch() {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const navigate = useNavigate();
  function submit(event: FormEvent) {
    event.preventDefault();
    if (text.trim().length < MIN_TERM_LENGTH) {
      setError(`Type at least ${MIN_TERM_LENGTH} characters.`);
      return;
    }
    navigate(links.search({ q: text.trim() }));
  }
  return (
    <form className="home-search" role="search" onSubmit={submit} aria-label="Search podcasts">
      <input
        type="search"
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder="Search podcasts by topic, name or guest"
        aria-label="Search podcasts"
        name="q"
      />
      <button type="submit" className="button">
        Search
      </button>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <SearchModeNote />
    </form>
  );
}
