import { useState } from 'react';
import { Link } from 'react-router';

import { Artwork } from '@/components/ui/artwork';
import { EmptyState, QueryState } from '@/components/ui/states';
import { errorText } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { links } from '@/config/paths';

import {
  comparePriority,
  listedTitle,
  LISTED_PODCAST_LABELS,
  LISTED_PODCAST_STATES,
  PRIORITIES,
  useListedPodcasts,
  useRemoveListedPodcast,
  useUpdateListedPodcast,
  type ActivityEntry,
  type ListedPodcast,
  type ListedPodcastState,
  type Priority,
  type PriorityFilter,
} from '../api/projects';

const ACTION_LABELS: Record<string, string> = {
  'added-to-list': 'added',
  'update-labels': 'changed the labels of',
  'update-priority': 'changed the priority of',
  'update-state': 'moved',
};

/** One activity line: who did what to which podcast, from and to what. */
export function describeActivity(entry: ActivityEntry, podcast: string): string {
  const who = entry.userDisplayName ?? 'Someone';
  const action = ACTION_LABELS[entry.actionType] ?? entry.actionType;
  const change =
    entry.actionType === 'added-to-list'
      ? entry.toValue
        ? ` as ${entry.toValue}`
        : ''
      : entry.fromValue || entry.toValue
        ? `: ${entry.fromValue || 'none'} → ${entry.toValue || 'none'}`
        : '';
  return `${who} ${action} ${podcast}${change}`;
}

function ListedPodcastCard({ listed, projectSlug, guestProfileId }: { listed: ListedPodcast; projectSlug: string; guestProfileId?: string }) {
  const update = useUpdateListedPodcast();
  const remove = useRemoveListedPodcast();
  const [showHistory, setShowHistory] = useState(false);
  const title = listedTitle(listed);
  const history = [...(listed.activityHistory ?? [])].sort((a, b) => Date.parse(b.activityDate) - Date.parse(a.activityDate));
  const toggleLabel = (label: string, on: boolean) =>
    update.mutate({
      projectSlug,
      listedPodcastId: listed.listedPodcastId,
      labels: on ? [...listed.labels, label] : listed.labels.filter((item) => item !== label),
    });
  const failure = update.error ?? remove.error;
  return (
    <li className="board-card" data-testid="board-card">
      <div className="board-card-head">
        <Artwork src={listed.podcast.imageUrl} title={title} size={32} />
        <div className="grow">
          <Link to={links.podcast(listed.podcast.slug)}>{title}</Link>
          {listed.priority ? <span className={`badge priority-${listed.priority}`}>{listed.priority}</span> : null}
        </div>
      </div>
      <div>
        <div className="board-controls">
          <select
            aria-label={`Status of ${title}`}
            value={listed.status}
            disabled={update.isPending}
            onChange={(event) => update.mutate({ projectSlug, listedPodcastId: listed.listedPodcastId, state: event.target.value as ListedPodcastState })}
          >
            {LISTED_PODCAST_STATES.map((state) => (
              <option key={state} value={state}>
                {state}
              </option>
            ))}
          </select>
          <select
            aria-label={`Priority of ${title}`}
            value={listed.priority ?? ''}
            disabled={update.isPending}
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
          <fieldset className="labels-field">
            <legend>Labels</legend>
            {LISTED_PODCAST_LABELS.map((label) => (
              <label key={label} className="checkbox">
                <input
                  type="checkbox"
                  checked={listed.labels.includes(label)}
                  disabled={update.isPending}
                  aria-label={`Label ${label} on ${title}`}
                  onChange={(event) => toggleLabel(label, event.target.checked)}
                />
                {label}
              </label>
            ))}
          </fieldset>
          <div className="board-actions">
            <Link
              className="button button-ghost button-small"
              to={links.outreach('new', { podcastId: listed.podcast.podcastId, guestProfileId, projectId: projectSlug })}
              aria-label={`Outreach email to ${title}`}
            >
              Outreach email
            </Link>
            <button type="button" className="button button-ghost button-small" aria-expanded={showHistory} onClick={() => setShowHistory(!showHistory)}>
              History ({history.length})
            </button>
            <button
              type="button"
              className="button button-ghost button-small"
              disabled={remove.isPending}
              onClick={() => {
                if (window.confirm(`Remove ${title} from this project?`)) remove.mutate({ projectSlug, listedPodcastId: listed.listedPodcastId });
              }}
            >
              Remove
            </button>
          </div>
        </div>
        {showHistory ? (
          history.length === 0 ? (
            <p className="muted">No changes yet.</p>
          ) : (
            <ol className="activity activity-small" aria-label={`History of ${title}`}>
              {history.map((entry, index) => (
                <li key={index}>
                  <time dateTime={entry.activityDate}>{formatDate(entry.activityDate)}</time> {describeActivity(entry, title)}
                </li>
              ))}
            </ol>
          )
        ) : null}
        {failure ? (
          <p className="form-error" role="alert">
            {errorText(failure)}
          </p>
        ) : null}
      </div>
    </li>
  );
}

const PRIORITY_FILTERS: { value: string; label: string; priorities: PriorityFilter }[] = [
  { value: '', label: 'All priorities', priorities: [] },
  ...[...PRIORITIES].reverse().map((priority) => ({ value: priority, label: priority, priorities: [priority] as PriorityFilter })),
  { value: 'none', label: 'No priority', priorities: ['none'] },
];

/** The board: one column per status, priorities ascending with none last (SPEC §4). */
export function ProjectBoard({ slug, guestProfileId }: { slug: string; guestProfileId?: string }) {
  const [priorityFilter, setPriorityFilter] = useState('');
  const priorities = PRIORITY_FILTERS.find((item) => item.value === priorityFilter)?.priorities ?? [];
  const query = useListedPodcasts(slug, priorities);
  return (
    <>
      <div className="toolbar">
        <label className="field inline">
          <span>Priority</span>
          <select value={priorityFilter} onChange={(event) => setPriorityFilter(event.target.value)}>
            {PRIORITY_FILTERS.map((item) => (
              <option key={item.value} value={item.value}>
                {item.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <QueryState
        query={query}
        feature="Project boards"
        isEmpty={(data) => data.listedPodcasts.length === 0}
        empty={
          priorityFilter ? (
            <EmptyState title="No podcasts with this priority" />
          ) : (
            <EmptyState title="No podcasts on this project yet">
              <Link to={links.search({ selectedProjectSlug: slug })}>Search for podcasts to add</Link>
            </EmptyState>
          )
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
                      <ListedPodcastCard key={listed.listedPodcastId} listed={listed} projectSlug={slug} guestProfileId={guestProfileId} />
                    ))}
                  </ul>
                </section>
              );
            })}
          </div>
        )}
      </QueryState>
    </>
  );
}

/** Every change to the project's podcasts, newest first. */
export function ActivityHistory({ slug }: { slug: string }) {
  const query = useListedPodcasts(slug);
  return (
    <QueryState query={query} feature="Activity history">
      {(data) => {
        const events = data.listedPodcasts
          .flatMap((listed) => (listed.activityHistory ?? []).map((entry) => ({ entry, podcast: listedTitle(listed) })))
          .sort((a, b) => Date.parse(b.entry.activityDate) - Date.parse(a.entry.activityDate));
        if (events.length === 0) return <EmptyState title="No activity yet" />;
        return (
          <ol className="activity" aria-label="Project activity">
            {events.map(({ entry, podcast }, index) => (
              <li key={index}>
                <time dateTime={entry.activityDate}>{formatDate(entry.activityDate)}</time> {describeActivity(entry, podcast)}
              </li>
            ))}
          </ol>
        );
      }}
    </QueryState>
  );
}
