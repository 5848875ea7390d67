import { useState } from 'react';

import { ApiClientError } from '@/lib/api-client';
import { useAddPodcastToProject, useProjects } from '@/features/projects/api/projects';

/** Adds a podcast to one of the team's projects (new ones start as prospects). */
export function AddToProject({ podcastId, defaultProjectSlug }: { podcastId: string; defaultProjectSlug?: string }) {
  const projects = useProjects();
  const add = useAddPodcastToProject();
  const [slug, setSlug] = useState(defaultProjectSlug ?? '');
  if (!projects.data || projects.data.projects.length === 0) return null;
  const chosen = slug || projects.data.projects[0].slug;
  const message = add.isSuccess
    ? 'Added'
    : add.error
      ? add.error instanceof ApiClientError
        ? add.error.displayMessage
        : add.error.message
      : null;
  return (
    <div className="add-to-project">
      <select aria-label="Project" value={chosen} onChange={(event) => setSlug(event.target.value)}>
        {projects.data.projects.map((project) => (
          <option key={project.projectId} value={project.slug}>
            {project.name}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="button button-small"
        disabled={add.isPending}
        onClick={() => add.mutate({ projectSlug: chosen, podcastId, state: 'prospect' })}
      >
        Add to project
      </button>
      {message ? <span role="status" className="muted">{message}</span> : null}
    </div>
  );
}
