import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';

import { Artwork } from '@/components/ui/artwork';
import { PageHeader, Section } from '@/components/ui/page-header';
import { EmptyState, QueryState } from '@/components/ui/states';
import { ApiClientError } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { links, paths } from '@/config/paths';

import {
  comparePriority,
  listedTitle,
  LISTED_PODCAST_STATES,
  PRIORITIES,
  PROJECT_TYPES,
  sortProjects,
  useCreateProject,
  useListedPodcasts,
  useProjectDetails,
  useProjects,
  useUpdateListedPodcast,
  type ListedPodcast,
  type ListedPodcastState,
  type Priority,
  type ProjectType,
} from '../api/projects';

export function ProjectsPage() {
  const query = useProjects();
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
          <ul className="project-list">
            {sortProjects(data.projects).map((project) => (
              <li key={project.projectId} className="card">
                <h2>
                  <Link to={links.project(project.slug)}>{project.name}</Link>
                </h2>
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
            ))}
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

function ListedPodcastCard({ listed, projectSlug }: { listed: ListedPodcast; projectSlug: string }) {
  const update = useUpdateListedPodcast();
  return (
    <li className="board-card">
      <Artwork src={listed.podcast.imageUrl} title={listedTitle(listed)} size={40} />
      <div className="grow">
        <Link to={links.podcast(listed.podcast.slug)}>{listedTitle(listed)}</Link>
        <div className="board-controls">
          <select
            aria-label={`Status of ${listedTitle(listed)}`}
            value={listed.status}
            onChange={(event) => update.mutate({ projectSlug, listedPodcastId: listed.listedPodcastId, state: event.target.value as ListedPodcastState })}
          >
            {LISTED_PODCAST_STATES.map((state) => (
              <option key={state} value={state}>
                {state}
              </option>
            ))}
          </select>
          <select
            aria-label={`Priority of ${listedTitle(listed)}`}
            value={listed.priority ?? ''}
            onChange={(event) =>
              update.mutate({ projectSlug, listedPodcastId: listed.listedPodcastId, priority: (event.target.value || null) as Priority | null })
            }
          >
            <option value="">No priority</option>
            {PRIORITIES.map((priority) => (
              <option key={priority} value={priority}>
                {priority}
              </option>
            ))}
          </select>
        </div>
        {listed.labels.length > 0 ? (
          <ul className="tags">
            {listed.labels.map((label) => (
              <li key={label} className="tag">
                {label}
              </li>
            ))}
          </ul>
        ) : null}
        {update.isError ? <p className="form-error">{update.error.message}</p> : null}
      </div>
    </li>
  );
}

/** The board: one column per status, priorities ascending with none last. */
function ProjectBoard({ slug }: { slug: string }) {
  const query = useListedPodcasts(slug);
  return (
    <QueryState
      query={query}
      feature="Project boards"
      isEmpty={(data) => data.listedPodcasts.length === 0}
      empty={
        <EmptyState title="No podcasts on this project yet">
          <Link to={links.search({ selectedProjectSlug: slug })}>Search for podcasts to add</Link>
        </EmptyState>
      }
    >
      {(data) => (
        <div className="board">
          {LISTED_PODCAST_STATES.map((state) => {
            const column = data.listedPodcasts.filter((p) => p.status === state).sort((a, b) => comparePriority(a.priority, b.priority));
            return (
              <section key={state} className="board-column" aria-label={state}>
                <h3>
                  {state} <span className="muted">{column.length}</span>
                </h3>
                <ul>
                  {column.map((listed) => (
                    <ListedPodcastCard key={listed.listedPodcastId} listed={listed} projectSlug={slug} />
                  ))}
                </ul>
              </section>
            );
          })}
        </div>
      )}
    </QueryState>
  );
}

function ActivityHistory({ slug }: { slug: string }) {
  const query = useListedPodcasts(slug);
  return (
    <QueryState query={query} feature="Activity history">
      {(data) => {
        const events = data.listedPodcasts
          .flatMap((listed) => (listed.activityHistory ?? []).map((event) => ({ ...event, podcast: listedTitle(listed) })))
          .sort((a, b) => Date.parse(b.activityDate) - Date.parse(a.activityDate));
        if (events.length === 0) return <EmptyState title="No activity yet" />;
        return (
          <ol className="activity">
            {events.map((event, index) => (
              <li key={index}>
                <time>{formatDate(event.activityDate)}</time> {event.userDisplayName ?? 'Someone'} · {event.actionType} · {event.podcast}
                {event.toValue ? ` → ${event.toValue}` : ''}
              </li>
            ))}
          </ol>
        );
      }}
    </QueryState>
  );
}

export const PROJECT_SUB_PAGES = ['board', 'activity'] as const;

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
            <Link to={links.project(slug, 'guest-profile')}>Guest profile</Link>
          </nav>
          {page === 'activity' ? (
            <Section title="Activity history">
              <ActivityHistory slug={slug} />
            </Section>
          ) : page === 'board' ? (
            <ProjectBoard slug={slug} />
          ) : (
            <EmptyState title="No such section" />
          )}
        </div>
      )}
    </QueryState>
  );
}
