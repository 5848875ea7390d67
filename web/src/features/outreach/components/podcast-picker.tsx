import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';

import { Artwork } from '@/components/ui/artwork';
import { usePodcast } from '@/features/podcasts/api/get-podcast';
import { getAutocomplete } from '@/features/search/api/autocomplete';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The chosen podcast by its title (never its id), with a way to choose another. */
function ChosenPodcast({ podcast, onChange, focus }: { podcast: string; onChange: () => void; focus: boolean }) {
  const details = usePodcast(podcast);
  const change = useRef<HTMLButtonElement | null>(null);
  useEffect(() => {
    if (focus) change.current?.focus();
  }, [focus]);
  const found = details.data?.podcast;
  return (
    <div className="field">
      <span>Podcast</span>
      <div className="chosen-podcast">
        {found ? <Artwork src={found.imageUrl} title={found.title} size={40} /> : null}
        <strong>{found ? found.title : details.isError ? 'This podcast was not found' : 'Loading the podcast…'}</strong>
        {found?.author ? <span className="muted">{found.author}</span> : null}
        <button type="button" ref={change} className="button button-ghost button-small" onClick={onChange}>
          Choose another podcast
        </button>
      </div>
    </div>
  );
}

/**
 * The podcast an email goes to: shown by its title when chosen (from a project, a
 * podcast page or a suggestion), else a box that suggests shows by title as one types;
 * an address or an id typed in is taken as it is.
 */
export function PodcastPicker({
  value,
  onChange,
  invalid,
  errorId,
}: {
  value: string;
  onChange: (podcast: string) => void;
  invalid: boolean;
  errorId: string;
}) {
  const [choosing, setChoosing] = useState(value.trim() === '');
  const [text, setText] = useState('');
  const listId = useId();
  // After a choice or "Choose another", the focus goes to what replaced the control
  // that had it, not to the page.
  const [moved, setMoved] = useState(false);
  const input = useRef<HTMLInputElement | null>(null);
  useEffect(() => {
    if (moved && choosing) input.current?.focus();
  }, [moved, choosing]);
  const typed = text.trim();
  const suggestions = useQuery({
    queryKey: ['autocomplete', 'podcasts', typed],
    queryFn: ({ signal }) => getAutocomplete(typed, signal),
    enabled: choosing && typed.length >= 2 && !UUID.test(typed),
    retry: false,
    staleTime: 60_000,
  });
  if (!choosing && value.trim()) {
    return (
      <ChosenPodcast
        podcast={value.trim()}
        focus={moved}
        onChange={() => {
          setText('');
          setChoosing(true);
          setMoved(true);
          onChange('');
        }}
      />
    );
  }
  const found = suggestions.data?.podcasts ?? [];
  return (
    <div className="field">
      <label htmlFor={`${listId}-input`}>Podcast</label>
      <input
        ref={input}
        id={`${listId}-input`}
        value={text}
        placeholder="Type a show's name (or paste its address)"
        onChange={(event) => {
          setText(event.target.value);
          onChange(event.target.value);
        }}
        aria-invalid={invalid}
        aria-describedby={invalid ? errorId : undefined}
        aria-controls={found.length > 0 ? listId : undefined}
        autoComplete="off"
      />
      <span className="visually-hidden" role="status">
        {typed.length >= 2 && suggestions.data ? `${found.length} matching podcast${found.length === 1 ? '' : 's'}` : ''}
      </span>
      {found.length > 0 ? (
        <ul id={listId} className="picker-suggestions" aria-label="Matching podcasts">
          {found.map((podcast) => (
            <li key={podcast.id}>
              <button
                type="button"
                className="button button-ghost button-small"
                onClick={() => {
                  onChange(podcast.id);
                  setChoosing(false);
                  setMoved(true);
                }}
              >
                {podcast.title}
                {podcast.author ? <span className="muted"> · {podcast.author}</span> : null}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
