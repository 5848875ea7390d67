import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';

import { useSemanticSearch } from '../api/facets';

/** Says when searches are keyword-only because the server is still building its vectors
 * (a fresh demo serves before they are ready), and goes away by itself once they are:
 * searches made meanwhile are run again, now hybrid. */
export function SearchModeNote() {
  const semantic = useSemanticSearch();
  const queryClient = useQueryClient();
  const previous = useRef(semantic);
  useEffect(() => {
    if (previous.current === false && semantic === true) void queryClient.invalidateQueries({ queryKey: ['search'] });
    previous.current = semantic;
  }, [semantic, queryClient]);
  if (semantic !== false) return null;
  return (
    <p className="notice search-mode-note" role="status">
      Keyword search only for now: this server is still building the vectors that let search match meaning as well as
      words. Searches become hybrid by themselves as soon as they are ready.
    </p>
  );
}
