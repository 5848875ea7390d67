import { useState } from 'react';
import { Link, NavLink } from 'react-router';

import { Artwork } from '@/components/ui/artwork';
import { PageHeader } from '@/components/ui/page-header';
import { EmptyState, QueryState } from '@/components/ui/states';
import { DIRECTORY_LETTERS, isDirectoryLetter, links } from '@/config/paths';

import { DIRECTORY_PAGE_SIZE, useDirectory } from '../api/get-directory';

function LetterNav() {
  return (
    <nav className="letters" aria-label="Letters">
      {DIRECTORY_LETTERS.map((letter) => (
        <NavLink key={letter} to={links.directoryLetter(letter)}>
          {letter === '0' ? '#' : letter.toUpperCase()}
        </NavLink>
      ))}
    </nav>
  );
}

export function DirectoryIndexPage() {
  return (
    <div>
      <PageHeader title="Podcast directory" lead="Every podcast in the catalog, by the first letter of its title." />
      <LetterNav />
    </div>
  );
}

export function DirectoryLetterPage({ letter }: { letter: string }) {
  const [skip, setSkip] = useState(0);
  const valid = isDirectoryLetter(letter);
  const query = useDirectory(letter, skip, valid);
  const label = letter === '0' ? '#' : letter.toUpperCase();
  return (
    <div>
      <PageHeader title={`Podcasts: ${label}`} />
      <LetterNav />
      {!valid ? (
        <EmptyState title="No such letter">Directory pages use a lowercase letter, for example /podcasts/directory/a.</EmptyState>
      ) : (
        <QueryState
          query={query}
          feature="The podcast directory"
          isEmpty={(data) => data.podcasts.length === 0}
          empty={<EmptyState title={`No podcasts under ${label}`} />}
        >
          {(data) => (
            <>
              <ul className="directory-list">
                {data.podcasts.map((podcast) => (
                  <li key={podcast.id}>
                    <Artwork src={podcast.imageUrl} title={podcast.title} size={40} />
                    <Link to={links.podcast(podcast.slug)}>{podcast.title}</Link>
                    {podcast.author ? <span className="muted"> · {podcast.author}</span> : null}
                  </li>
                ))}
              </ul>
              <div className="toolbar">
                <button type="button" className="button button-secondary" disabled={skip === 0} onClick={() => setSkip(Math.max(0, skip - DIRECTORY_PAGE_SIZE))}>
                  Previous
                </button>
                <button
                  type="button"
                  className="button button-secondary"
                  disabled={data.podcasts.length < DIRECTORY_PAGE_SIZE}
                  onClick={() => setSkip(skip + DIRECTORY_PAGE_SIZE)}
                >
                  Next
                </button>
              </div>
            </>
          )}
        </QueryState>
      )}
    </div>
  );
}
