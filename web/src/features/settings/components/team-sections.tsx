import { useState } from 'react';
import { Link } from 'react-router';

import { Artwork } from '@/components/ui/artwork';
import { EmptyState, QueryState } from '@/components/ui/states';
import { errorText } from '@/lib/api-client';
import { formatDate, formatNumber } from '@/lib/format';
import { links } from '@/config/paths';
import type { TeamPodcast } from '@/lib/api-types';

import {
  REQUEST_HISTORY_PAGE,
  useMembersUsage,
  useRemoveTeamPodcast,
  useRequestHistory,
  useTeamPodcasts,
  useUpdateTeamPodcast,
} from '../api/team';

const ADDED_REASONS: Record<string, string> = {
  'add-to-team-podcasts-button': 'added by hand',
  'listed-podcast': 'listed on a project',
  migration: 'migrated',
  script: 'added by a script',
  'search-export': 'exported from a search',
};

function TeamPodcastRow({ item }: { item: TeamPodcast }) {
  const update = useUpdateTeamPodcast();
  const remove = useRemoveTeamPodcast();
  const title = item.podcast.titleLatest;
  const set = (flags: { sync?: boolean; blacklist?: boolean }) =>
    update.mutate({ podcastId: item.podcastId, sync: flags.sync ?? item.sync, blacklist: flags.blacklist ?? item.blacklist });
  const failure = update.error ?? remove.error;
  return (
    <li data-testid="team-podcast">
      <Artwork src={item.podcast.imageUrl} title={title} size={40} />
      <span className="grow">
        <Link to={links.podcast(item.podcast.slug)}>{title}</Link>
        <span className="muted">
          {' '}
          · {ADDED_REASONS[item.addedReason] ?? item.addedReason} {formatDate(item.createdAt)}
          {item.projects.length > 0 ? ` · on ${item.projects.length} project${item.projects.length === 1 ? '' : 's'}` : ''}
        </span>
        {failure ? (
          <span className="form-error" role="alert">
            {' '}
            {errorText(failure)}
          </span>
        ) : null}
      </span>
      <label className="checkbox">
        <input type="checkbox" checked={item.sync} disabled={update.isPending} onChange={(event) => set({ sync: event.target.checked })} aria-label={`Sync ${title}`} />
        Sync
      </label>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={item.blacklist}
          disabled={update.isPending}
          onChange={(event) => set({ blacklist: event.target.checked })}
          aria-label={`Blacklist ${title}`}
        />
        Blacklist
      </label>
      <button
        type="button"
        className="button button-ghost button-small"
        disabled={remove.isPending}
        onClick={() => {
          if (window.confirm(`Remove ${title} from the team's podcasts?`)) remove.mutate(item.podcastId);
        }}
      >
        Remove
      </button>
    </li>
  );
}

/** The team's podcasts (or its blacklist), each with its sync and blacklist flags. */
export function TeamPodcastList({ blacklist }: { blacklist?: boolean }) {
  const query = useTeamPodcasts(blacklist);
  return (
    <QueryState
      query={query}
      feature="Team podcasts"
      isEmpty={(data) => data.teamPodcasts.length === 0}
      empty={
        <EmptyState title={blacklist ? 'No blacklisted podcasts' : 'No team podcasts yet'}>
          {blacklist ? 'Blacklisted podcasts are left out of your team’s automated searches.' : 'Save podcasts to your team from their pages (“Save to team podcasts”).'}
        </EmptyState>
      }
    >
      {(data) => (
        <>
          <p className="muted">
            {formatNumber(data.totalFiltered)} of {formatNumber(data.total)} podcasts
          </p>
          <ul className="directory-list team-podcasts">
            {data.teamPodcasts.map((item) => (
              <TeamPodcastRow key={item.podcastId} item={item} />
            ))}
          </ul>
        </>
      )}
    </QueryState>
  );
}

const WINDOWS = [7, 30, 90] as const;

/** Each member's usage over a window, by kind of call. */
export function MembersUsage() {
  const [window, setWindow] = useState<number>(30);
  const query = useMembersUsage(window);
  return (
    <>
      <label className="field inline">
        <span>Over the last</span>
        <select value={window} onChange={(event) => setWindow(Number(event.target.value))}>
          {WINDOWS.map((days) => (
            <option key={days} value={days}>
              {days} days
            </option>
          ))}
        </select>
      </label>
      <QueryState query={query} feature="Usage by member" isEmpty={(data) => data.members.length === 0} empty={<EmptyState title="No usage recorded yet" />}>
        {(data) => {
          const aliases = [...new Set(data.members.flatMap((member) => Object.keys(member.usageByAlias)))].sort();
          return (
            <div className="table-wrap">
              <table className="table" aria-label="Usage by member">
                <thead>
                  <tr>
                    <th scope="col">Member</th>
                    {aliases.map((alias) => (
                      <th key={alias} scope="col">
                        {alias}
                      </th>
                    ))}
                    <th scope="col">Total</th>
                  </tr>
                </thead>
                <tbody>
                  {data.members.map((member) => (
                    <tr key={member.userId}>
                      <th scope="row">{member.displayName ?? member.email ?? member.userId}</th>
                      {aliases.map((alias) => (
                        <td key={alias}>{formatNumber(member.usageByAlias[alias] ?? 0)}</td>
                      ))}
                      <td>{formatNumber(member.totalUsage)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          );
        }}
      </QueryState>
    </>
  );
}

// The server lists one kind of request at a time (requestType is required).
const REQUEST_TYPES = [
  { value: 'transcription', label: 'Transcriptions' },
  { value: 'deepAnalysis', label: 'Deep analyses' },
  { value: 'diarization', label: 'Speaker detection' },
  { value: 'guestPrep', label: 'Guest preparation' },
  { value: 'autoOutreach', label: 'Automated outreach' },
];

/** The team's requests (transcriptions, analyses, guest preparation), newest first, a page at a time. */
export function RequestHistory() {
  const [requestType, setRequestType] = useState(REQUEST_TYPES[0].value);
  const [skip, setSkip] = useState(0);
  const query = useRequestHistory({ skip, requestType });
  return (
    <>
      <label className="field inline">
        <span>Show</span>
        <select
          value={requestType}
          onChange={(event) => {
            setRequestType(event.target.value);
            setSkip(0);
          }}
        >
          {REQUEST_TYPES.map((type) => (
            <option key={type.value} value={type.value}>
              {type.label}
            </option>
          ))}
        </select>
      </label>
      <QueryState query={query} feature="Activity history" isEmpty={(data) => data.requests.length === 0} empty={<EmptyState title="No requests of this kind yet" />}>
        {(data) => (
          <>
            <ol className="activity" aria-label="Team requests">
              {data.requests.map((request, index) => (
                <li key={`${request.podcastId}-${String(request.requestedAt)}-${index}`}>
                  <time>{formatDate(request.requestedAt)}</time> {REQUEST_TYPES.find((type) => type.value === request.requestType)?.label ?? request.requestType} ·{' '}
                  <Link to={links.podcast(request.podcastSlug)}>{request.podcastTitle}</Link>
                  {request.episodeTitle ? ` · ${String(request.episodeTitle)}` : ''} ·{' '}
                  {request.completedAt ? `completed ${formatDate(request.completedAt)}` : request.failureReason ? `failed: ${request.failureReason}` : 'in progress'}
                </li>
              ))}
            </ol>
            <div className="toolbar">
              <span className="muted">
                {skip + 1}–{skip + data.requests.length} of {formatNumber(data.totalRequests)}
              </span>
              <button type="button" className="button button-secondary button-small" disabled={skip === 0} onClick={() => setSkip(Math.max(0, skip - REQUEST_HISTORY_PAGE))}>
                Newer
              </button>
              <button
                type="button"
                className="button button-secondary button-small"
                disabled={skip + data.requests.length >= data.totalRequests}
                onClick={() => setSkip(skip + REQUEST_HISTORY_PAGE)}
              >
                Older
              </button>
            </div>
          </>
        )}
      </QueryState>
    </>
  );
}
