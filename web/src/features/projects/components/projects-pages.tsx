import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';

import { PageHeader, Section } from '@/components/ui/page-header';
import { EmptyState, QueryState } from '@/components/ui/states';
import { ApiClientError } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { links, paths } from '@/config/paths';

import {
  LISTED_PODCAST_STATES,
  PROJECT_TYPES,
  sortProjects,
  useCreateProject,
  useProjectDetails,
  usePinnedProjects,
  useProjects,
  type ProjectType,
} from '../api/projects';
import { ActivityHistory, ProjectBoard } from './project-board';
import { ProjectExport } from './project-export';
import { ProjectSuggestions } from './project-suggestions';

export function ProjectsPage() {
  const { pinned, ready, toggle: togglePin, error: pinError } = usePinnedProjects();
  // The list waits for the pins so that the server orders it once.
  const query = useProjects(ready, pinned);
  return (
    <div>
      <PageHeader
        title="Projects"
        lead="Lists of podcasts to pitch, each tracked from prospect to booked."
        actions={
          <Link className="button" to={paths.listNew.pattern}>
            New project
          </Link>
        }
      />
      {pinError ? (
        <p className="form-error" role="alert">
          The pin was not saved: {pinError instanceof ApiClientError ? pinError.displayMessage : pinError instanceof Error ? pinError.message : 'unknown error'}
        </p>
      ) : null}
      <QueryState
        query={query}
        feature="Projects"
        isEmpty={(data) => data.projects.length === 0}
        empty={
          <EmptyState title="No projects yet">
            <Link to={paths.listNew.pattern}>Create your first project</Link>
          </EmptyState>
        }
      >
        {(data) => (
          <ul className="project-list" aria-label="Projects">
            {sortProjects(data.projects, pinned).map((project) => {
              const isPinned = pinned.includes(project.projectId);
              return (
                <li key={project.projectId} className="card" data-testid="project-card">
                  <div className="card-title-row">
                    <h2>
                      <Link to={links.project(project.slug)}>{project.name}</Link>
                    </h2>
                    <button
                      type="button"
                      className="button button-ghost button-small"
                      aria-pressed={isPinned}
                      aria-label={`${isPinned ? 'Unpin' : 'Pin'} ${project.name}`}
                      onClick={() => togglePin(project.projectId)}
                    >
                      {isPinned ? '★ Pinned' : '☆ Pin'}
                    </button>
                  </div>
                  <p className="meta">
                    <span className={`status status-${project.status.toLowerCase()}`}>{project.status}</span> · {project.listedPodcastsCount} podcasts ·
                    updated {formatDate(project.lastUpdated)}
                  </p>
                  <ul className="state-counts">
                    {LISTED_PODCAST_STATES.map((state) => (
                      <li key={state}>
                        {state} <strong>{project.stateCounts[state]}</strong>
                      </li>
                    ))}
                  </ul>
                </li>
              );
            })}
          </ul>
        )}
      </QueryState>
    </div>
  );
}

export const PROJECT_NAME_MIN = 6;
export const PROJECT_NAME_MAX = 32;

/** The project name rule of SPEC §5 with its exact messages. */
export function projectNameError(name: string): string | null {
  if (name.trim().length < PROJECT_NAME_MIN) return `Project name must be at least ${PROJECT_NAME_MIN} characters`;
  if (name.trim().length > PROJECT_NAME_MAX) return `Project name must be at most ${PROJECT_NAME_MAX} characters`;
  return null;
}

export function NewProjectPage() {
  const [name, setName] = useState('');
  const [types, setTypes] = useState<ProjectType[]>(['guest-booking']);
  const [error, setError] = useState<string | null>(null);
  const create = useCreateProject();
  const navigate = useNavigate();
  function submit(event: FormEvent) {
    event.preventDefault();
    const nameError = projectNameError(name);
    if (nameError) {
      setError(nameError);
      return;
    }
    setError(null);
    create.mutate(
      { name: name.trim(), projectTypes: types },
      {
        onSuccess: (data) => navigate(data?.project?.slug ? links.project(data.project.slug) : paths.projects.pattern),
        onError: (failure) => setError(failure instanceof ApiClientError ? (failure.isNotAvailable ? 'Projects are not available on this server yet.' : failure.displayMessage) : failure.message),
      },
    );
  }
  return (
    <div className="narrow">
      <PageHeader title="New project" />
      <form className="form card" onSubmit={submit} noValidate>
        <label className="field">
          <span>Name</span>
          <input value={name} onChange={(event) => setName(event.target.value)} maxLength={64} name="name" aria-invalid={error ? true : undefined} />
        </label>
        <fieldset className="field">
          <legend>What is it for?</legend>
          <div className="checkbox-grid">
            {PROJECT_TYPES.map((type) => (
              <label key={type} className="checkbox">
                <input
                  type="checkbox"
                  checked={types.includes(type)}
                  onChange={(event) => setTypes(event.target.checked ? [...types, type] : types.filter((t) => t !== type))}
                />
                {type}
              </label>
            ))}
          </div>
        </fieldset>
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="button" disabled={create.isPending}>
          Create project
        </button>
      </form>
    </div>
  );
}

export const PROJECT_SUB_PAGES = ['board', 'activity', 'suggestions', 'export'] as const;

export function ProjectPage({ slug, subPage }: { slug: string; subPage?: string }) {
  const query = useProjectDetails(slug);
  const page = subPage ?? 'board';
  return (
    <QueryState query={query} feature="Projects">
      {({ project }) => (
        <div>
          <PageHeader
            title={project.name}
            lead={`${project.listedPodcastsCount} podcasts · ${project.status}`}
            actions={
              <Link className="button" to={links.search({ selectedProjectSlug: slug })}>
                Add podcasts
              </Link>
            }
          />
          <nav className="tabs" aria-label="Project">
            <Link to={links.project(slug)} aria-current={page === 'board' ? 'page' : undefined}>
              Board
            </Link>
            <Link to={links.project(slug, 'activity')} aria-current={page === 'activity' ? 'page' : undefined}>
              Activity
            </Link>
            <Link to={links.project(slug, 'suggestions')} aria-current={page === 'suggestions' ? 'page' : undefined}>
              Suggestions
            </Link>
            <Link to={links.project(slug, 'export')} aria-current={page === 'export' ? 'page' : undefined}>
              Export
            </Link>
            <Link to={links.project(slug, 'guest-profile')}>Guest profile</Link>
          </nav>
          {page === 'activity' ? (
            <Section title="Activity history">
              <ActivityHistory slug={slug} />
            </Section>
          ) : page === 'suggestions' ? (
            <Section title="Suggested podcasts">
              <ProjectSuggestions slug={slug} />
            </Section>
          ) : page === 'export' ? (
            <Section title="Export">
              <ProjectExport projectId={project.projectId} projectSlug={slug} />
            </Section>
          ) : page === 'board' ? (
            <ProjectBoard slug={slug} guestProfileId={project.linkedGuestProfile?.id} />
          ) : (
            <EmptyState title="No such section" />
          )}
        </div>
      )}
    </QueryState>
  );
}
