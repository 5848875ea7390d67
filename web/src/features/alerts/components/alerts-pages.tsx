import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';

import { PageHeader, Section } from '@/components/ui/page-header';
import { EmptyState, ErrorState, QueryState, Spinner } from '@/components/ui/states';
import { formatDate, formatDuration } from '@/lib/format';
import { links } from '@/config/paths';

import {
  ALERT_TYPES,
  EMAIL_FREQUENCIES,
  FIRST_RUN_POLL_LIMIT_MS,
  FIRST_RUN_POLL_MS,
  MATCHES_POLL_MS,
  useAlertConfig,
  useAlertConfigs,
  useAlertMatches,
  useCreateAlertConfig,
  useUpdateAlertConfig,
  type AlertConfig,
  type AlertType,
  type EmailFrequency,
} from '../api/alerts';
import { AlertForm, EMPTY_ALERT, settingsOf, type AlertFormValues } from './alert-form';

/** POSTs the form as a new alert and opens it. */
function NewAlert({ onCancel }: { onCancel: () => void }) {
  const create = useCreateAlertConfig();
  const navigate = useNavigate();
  const submit = (values: AlertFormValues) =>
    create.mutate(
      {
        alertName: values.alertName,
        alertType: values.alertType,
        value: values.value,
        enabled: values.enabled,
        emailSettings: { frequency: values.frequency },
        additionalAlertSettings: settingsOf(values),
        generateAlternativeSpellings: values.generateAlternativeSpellings,
      },
      { onSuccess: (data) => void navigate(links.alert(data.createdAlertConfig.id)) },
    );
  return <AlertForm mode="create" initial={EMPTY_ALERT} pending={create.isPending} error={create.error} onSubmit={submit} onCancel={onCancel} />;
}

const stringsOf = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);

/** The form's values from a stored alert. */
function valuesOf(config: AlertConfig): AlertFormValues {
  const settings = config.alertSettings as Record<string, unknown>;
  const filters = (settings.filters ?? {}) as { excludeAds?: boolean | null; requireSubject?: boolean | null };
  return {
    alertName: config.alertName,
    alertType: (ALERT_TYPES as readonly string[]).includes(config.alertType) ? (config.alertType as AlertType) : 'custom-keyword',
    value: typeof settings.value === 'string' ? settings.value : '',
    otherSpellings: stringsOf(settings.otherSpellings).join('\n'),
    excludeAds: filters.excludeAds ?? false,
    requireSubject: filters.requireSubject ?? false,
    genresToInclude: stringsOf(settings.genresToInclude).join(', '),
    genresToSkip: stringsOf(settings.genresToSkip).join(', '),
    subjectNote: typeof settings.subjectNote === 'string' ? settings.subjectNote : '',
    frequency: (EMAIL_FREQUENCIES as readonly string[]).includes(config.emailSettings.frequency)
      ? (config.emailSettings.frequency as EmailFrequency)
      : 'daily',
    otherEmails: stringsOf(settings.otherEmails).join('\n'),
    enabled: config.enabled,
    generateAlternativeSpellings: false,
  };
}

/** Loads the alert and PATCHes the edited fields; the settings keep what the form does not show. */
function EditAlert({ alertId, onDone }: { alertId: string; onDone: (saved: boolean) => void }) {
  const query = useAlertConfig(alertId);
  const update = useUpdateAlertConfig();
  if (query.isPending) return <Spinner label="Loading the alert…" />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  const config = query.data.alertConfig;
  const submit = (values: AlertFormValues) =>
    update.mutate(
      {
        alertConfigId: alertId,
        updates: {
          alertName: values.alertName,
          enabled: values.enabled,
          emailSettings: { frequency: values.frequency },
          alertSettings: { ...(config.alertSettings as Record<string, unknown>), value: values.value, ...settingsOf(values) },
        },
      },
      { onSuccess: () => onDone(true) },
    );
  return <AlertForm mode="edit" initial={valuesOf(config)} pending={update.isPending} error={update.error} onSubmit={submit} onCancel={() => onDone(false)} />;
}

/** An enabled alert that has not finished its first run (it starts when the alert is created). */
const firstRunPending = (alert: { enabled: boolean; lastRunDate: unknown }) => alert.enabled && !alert.lastRunDate;

function lastRunText(alert: { enabled: boolean; lastRunDate: unknown }) {
  if (alert.lastRunDate) return `last run ${formatDate(alert.lastRunDate)}`;
  return alert.enabled ? 'first check running' : 'not run yet';
}

export function AlertsPage({ alertId }: { alertId?: string }) {
  // While the shown alert's first run is under way the list is read every few
  // seconds, for at most FIRST_RUN_POLL_LIMIT_MS: a first run that failed leaves the
  // date unset until the next scheduled run.
  const [gaveUp, setGaveUp] = useState(false);
  const pendingIn = (data: { alertConfigs: AlertConfig[] } | undefined) =>
    Boolean(alertId && data?.alertConfigs.some((alert) => alert.id === alertId && firstRunPending(alert)));
  const query = useAlertConfigs((data) => !gaveUp && pendingIn(data));
  const pending = pendingIn(query.data);
  const fast = pending && !gaveUp;
  useEffect(() => {
    if (!pending) return;
    const stop = setTimeout(() => setGaveUp(true), FIRST_RUN_POLL_LIMIT_MS);
    return () => clearTimeout(stop);
  }, [pending]);
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const action = alertId ? (
    <button type="button" className="button" aria-expanded={editing} onClick={() => { setEditing(!editing); setSaved(false); }}>
      Edit alert
    </button>
  ) : (
    <button type="button" className="button" aria-expanded={editing} onClick={() => setEditing(!editing)}>
      New alert
    </button>
  );
  return (
    <div>
      <PageHeader title={alertId ? 'Alert' : 'Alerts'} lead="Searches that run against new episodes and tell you what matched." actions={action} />
      {editing ? (
        alertId ? (
          <EditAlert
            key={alertId}
            alertId={alertId}
            onDone={(done) => {
              setEditing(false);
              setSaved(done);
            }}
          />
        ) : (
          <NewAlert onCancel={() => setEditing(false)} />
        )
      ) : null}
      {saved ? (
        <p role="status" className="muted">
          Alert saved.
        </p>
      ) : null}
      <QueryState
        query={query}
        feature="Alerts"
        isEmpty={(data) => data.alertConfigs.length === 0}
        empty={<EmptyState title="No alerts yet" />}
      >
        {(data) => {
          const alerts = alertId ? data.alertConfigs.filter((alert) => alert.id === alertId) : data.alertConfigs;
          if (alerts.length === 0) return <EmptyState title="Alert not found" />;
          return (
            <ul className="project-list">
              {alerts.map((alert) => (
                <li key={alert.id} className="card">
                  <h2>
                    <Link to={links.alert(alert.id)}>{alert.alertName}</Link>
                  </h2>
                  <p className="meta">
                    {alert.alertType} · {alert.enabled ? 'enabled' : 'paused'} · {lastRunText(alert)}
                  </p>
                </li>
              ))}
            </ul>
          );
        }}
      </QueryState>
      {alertId ? (
        <Section title="Matches">
          <AlertMatches key={alertId} alertId={alertId} firstRunPending={fast} />
        </Section>
      ) : null}
    </div>
  );
}

/**
 * The episodes an alert matched, each with the mentions and where they start. While the
 * alert's first run is under way the list is read every few seconds, then every minute;
 * matches that arrive while the page is open are announced.
 */
function AlertMatches({ alertId, firstRunPending }: { alertId: string; firstRunPending: boolean }) {
  const query = useAlertMatches(alertId, firstRunPending ? FIRST_RUN_POLL_MS : MATCHES_POLL_MS);
  // The total, not the page: a page holds at most 20 matches.
  const count = query.data?.total;
  const firstSeen = useRef<number | undefined>(undefined);
  const [arrived, setArrived] = useState(0);
  // The first run just ended: its matches are read at once, not at the next poll.
  const wasPending = useRef(firstRunPending);
  const { refetch } = query;
  useEffect(() => {
    if (wasPending.current && !firstRunPending) void refetch();
    wasPending.current = firstRunPending;
  }, [firstRunPending, refetch]);
  useEffect(() => {
    if (count === undefined) return;
    if (firstSeen.current === undefined) firstSeen.current = count;
    else if (count > firstSeen.current) setArrived(count - firstSeen.current);
  }, [count]);
  const empty = firstRunPending ? (
    <EmptyState title="Checking the catalog for the first time">
      <Spinner label="Looking for episodes that mention this alert…" />
      Matches appear here as soon as the first check is done.
    </EmptyState>
  ) : (
    <EmptyState title="No matches yet">The catalog is checked again every 5 minutes; new matches show up here and in your alert emails.</EmptyState>
  );
  return (
    <QueryState query={query} feature="Alert matches" isEmpty={(data) => data.matches.length === 0} empty={empty}>
      {(data) => (
        <>
        {arrived > 0 ? (
          <p role="status" className="notice">
            {arrived === 1 ? '1 new match' : `${arrived} new matches`} since you opened this page.
          </p>
        ) : null}
        <ul className="project-list" aria-label="Alert matches">
          {data.matches.map((match) => {
            const episodeTitle = (match.episode as { title?: string }).title ?? match.episode.slug;
            const podcastTitle = (match.podcast as { title?: string }).title ?? match.podcast.slug;
            return (
              <li key={match.id} className="card">
                <h3>
                  <Link to={links.appPodcast(match.podcast.slug, match.episode.slug)}>{episodeTitle}</Link>
                </h3>
                <p className="meta">
                  <Link to={links.podcast(match.podcast.slug)}>{podcastTitle}</Link> · {formatDate(match.episode.publishedAt)} · {match.keptMentionCount} of{' '}
                  {match.mentionCount} mentions kept
                  {match.appearance?.role ? ` · ${match.appearance.role}` : ''}
                </p>
                <ul className="activity">
                  {match.mentions
                    .filter((mention) => mention.passesFilters)
                    .map((mention) => (
                      <li key={mention.id}>
                        <blockquote className="snippet snippet-transcript">{mention.snippet}</blockquote>
                        {mention.startSecond !== null ? (
                          <a href={mention.playUrl} rel="noopener noreferrer" target="_blank">
                            Play from {formatDuration(mention.startSecond) || '0 min'}
                          </a>
                        ) : null}
                      </li>
                    ))}
                </ul>
              </li>
            );
          })}
        </ul>
        </>
      )}
    </QueryState>
  );
}
