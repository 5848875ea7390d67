import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';

import { EmptyState } from '@/components/ui/states';
import { links } from '@/config/paths';
import { apiRequest, errorText } from '@/lib/api-client';

import { LISTED_PODCAST_STATES, useAddPodcastToProject } from '../api/projects';

/** The `project` kind of POST /agent/: the list's pipeline, podcasts to add and next steps. */
export type ProjectAssist = {
  projectId: string;
  slug: string;
  name: string;
  pipeline: Record<string, number>;
  searchTerms: string[];
  suggestions: {
    podcastId: string;
    slug: string;
    title: string;
    imageUrl: string | null;
    genres: string[];
    matchedTerms: string[];
    likeListed: { podcastId: string; title: string }[];
    score: number;
  }[];
  nextSteps: string[];
};

export const suggestPodcasts = (projectSlug: string) =>
  apiRequest<{ kind: string; result: ProjectAssist }>('/agent/', {
    method: 'POST',
    body: { kind: 'project', projectId: projectSlug, limit: 10 },
  }).then((answer) => answer.result);

function AddButton({ projectSlug, podcastId, title }: { projectSlug: string; podcastId: string; title: string }) {
  const add = useAddPodcastToProject();
  if (add.isSuccess) return <span className="tag">Added</span>;
  return (
    <>
      <button
        type="button"
        className="button button-small"
        aria-label={`Add ${title} to the list`}
        disabled={add.isPending}
        onClick={() => add.mutate({ projectSlug, podcastId, labels: ['automated'] })}
      >
        {add.isPending ? 'Adding…' : 'Add to list'}
      </button>
      {add.isError ? (
        <span className="form-error" role="alert">
          {errorText(add.error)}
        </span>
      ) : null}
    </>
  );
}

type Reasons = Pick<ProjectAssist['suggestions'][number], 'matchedTerms' | 'likeListed'>;

/** A suggestion's reasons: the terms it matched, and the listed shows it is like. */
export function reasonsText({ matchedTerms, likeListed }: Reasons): string {
  const likes = likeListed.map((show) => show.title);
  return [matchedTerms.length > 0 ? `Matches ${matchedTerms.join(', ')}` : null, likes.length > 0 ? `Like ${likes.join(', ')} on your list` : null]
    .filter(Boolean)
    .join(' · ');
}

/** Project sub-page: asks the AI assist for podcasts that fit the project and are not on its list yet. */
export function ProjectSuggestions({ slug }: { slug: string }) {
  const suggest = useMutation({ mutationFn: () => suggestPodcasts(slug) });
  const assist = suggest.data;
  return (
    <div className="stack">
      <p>
        Podcasts that match the project's keywords, its strategies, its guest's expertise and topics and its purpose, and shows like the ones
        on its list, leaving out the ones already on the list and the team's blacklist.
        Each request counts as one AI assist.
      </p>
      <div className="toolbar">
        <button
          type="button"
          className="button"
          disabled={suggest.isPending}
          onClick={() => suggest.mutate()}
        >
          {suggest.isPending ? 'Looking…' : assist ? 'Suggest again' : 'Suggest podcasts'}
        </button>
      </div>
      {suggest.isError ? (
        <p className="form-error" role="alert">
          {errorText(suggest.error)}
        </p>
      ) : null}
      {assist ? (
        <>
          <dl className="facts" aria-label="List by status">
            {LISTED_PODCAST_STATES.map((state) => (
              <div key={state}>
                <dt>{state}</dt>
                <dd>{assist.pipeline[state] ?? 0}</dd>
              </div>
            ))}
          </dl>
          <p className="meta">
            Searched for:{' '}
            {[
              assist.searchTerms.join(', '),
              Object.values(assist.pipeline).some((count) => Number(count) > 0) ? 'shows like the ones on the list' : '',
            ]
              .filter(Boolean)
              .join('; ') || 'nothing (add keywords or podcasts to the project)'}
          </p>
          {assist.suggestions.length === 0 ? (
            <EmptyState title="No new podcasts found">Add keywords or podcasts to the project, or generate search strategies.</EmptyState>
          ) : (
            <ul className="project-list" aria-label="Suggested podcasts">
              {assist.suggestions.map((suggestion) => (
                <li key={suggestion.podcastId} className="card">
                  <div className="card-title-row">
                    <h3>
                      <Link to={links.appPodcast(suggestion.slug)}>{suggestion.title}</Link>
                    </h3>
                    <AddButton projectSlug={slug} podcastId={suggestion.podcastId} title={suggestion.title} />
                  </div>
                  <p className="meta">{reasonsText(suggestion)}</p>
                </li>
              ))}
            </ul>
          )}
          {assist.nextSteps.length > 0 ? (
            <>
              <h3>Next steps</h3>
              <ul aria-label="Next steps">
                {assist.nextSteps.map((step) => (
                  <li key={step}>{step}</li>
                ))}
              </ul>
            </>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
