import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';

import { Artwork } from '@/components/ui/artwork';
import { usePodcast } from '@/features/podcasts/api/get-podcast';
import { apiRequest } from '@/lib/api-client';

type Suggested = { id: string; slug: string; title: string; author?: string | null; imageUrl?: string | null };

/** GET /autocomplete/podcasts?query: podcasts whose titles complete what was typed. */
const getSuggestions = (query: string, signal?: AbortSignal) =>
  apiRequest<{ podcasts: Suggested[] }>('/autocomplete/podcasts', { query: { query }, signal });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The chosen podcast by its title (never its id), with a way to choose another. */
function ChosenPodcast({ podcast, onChange }: { podcast: string; onChange: () => void }) {
  const details = usePodcast(podcast);
  const found = details.data?.podcast;
  return (
    <div className="field">
      <span>Podcast</span>
      <div className="chosen-podcast">
        {found ? <Artwork src={found.imageUrl} title={found.title} size={40} /> : null}
        <strong>{found ? found.title : details.isError ? 'This podcast was not found' : 'Loading the podcast…'}</strong>
        {found?.author ? <span className="muted">{found.author}</span> : null}
        <button type="button" className="button button-ghost button-small" onClick={onChange}>
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
  const typed = text.trim();
  const suggestions = useQuery({
    queryKey: ['autocomplete', 'podcasts', typed],
    queryFn: ({ signal }) => getSuggestions(typed, signal),
    enabled: choosing && typed.length >= 2 && !UUID.test(typed),
    retry: false,
    staleTime: 60_000,
  });
  if (!choosing && value.trim()) {
    return (
      <ChosenPodcast
        podcast={value.trim()}
        onChange={() => {
          setText('');
          setChoosing(true);
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
