import { useState } from 'react';
import { Link } from 'react-router';

import { paths } from '@/config/paths';
import { errorText } from '@/lib/api-client';
import { activeProjects, isAlreadyListed, useAddPodcastToProject, useProjects } from '@/features/projects/api/projects';

type Props = {
  podcastId: string;
  /** The project chosen at first (the search's `selected-project-slug`), when it is active. */
  defaultProjectSlug?: string;
  /** Without an active project, link to a new one (else nothing is shown). */
  offerNewProject?: boolean;
};

/** Adds a podcast to one of the team's active projects (new ones start as prospects). */
export function AddToProject({ podcastId, defaultProjectSlug, offerNewProject = false }: Props) {
  const projects = useProjects();
  const add = useAddPodcastToProject();
  const [slug, setSlug] = useState(defaultProjectSlug ?? '');
  if (!projects.data) return null;
  const active = activeProjects(projects.data.projects);
  if (active.length === 0) {
    return offerNewProject ? (
      <p className="add-to-project">
        <Link to={paths.listNew.pattern}>Create a project</Link> to add this podcast to.
      </p>
    ) : null;
  }
  const chosen = active.find((project) => project.slug === slug) ?? active[0];
  const target = active.find((project) => project.slug === add.variables?.projectSlug)?.name ?? 'the project';
  const message = add.isSuccess
    ? `Added to ${target}`
    : add.error
      ? isAlreadyListed(add.error)
        ? `Already on ${target}`
        : errorText(add.error)
      : null;
  return (
    <div className="add-to-project">
      <select aria-label="Project" value={chosen.slug} onChange={(event) => setSlug(event.target.value)}>
        {active.map((project) => (
          <option key={project.projectId} value={project.slug}>
            {project.name}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="button button-small"
        disabled={add.isPending}
        onClick={() => add.mutate({ projectSlug: chosen.slug, podcastId, state: 'prospect' })}
      >
        Add to project
      </button>
      {message ? <span role="status" className="muted">{message}</span> : null}
    </div>
  );
}
