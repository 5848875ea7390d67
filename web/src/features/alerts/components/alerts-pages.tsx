import { Link } from 'react-router';

import { PageHeader, Section } from '@/components/ui/page-header';
import { EmptyState, QueryState } from '@/components/ui/states';
import { formatDate, formatDuration } from '@/lib/format';
import { links } from '@/config/paths';

import { useAlertConfigs, useAlertMatches } from '../api/alerts';

export function AlertsPage({ alertId }: { alertId?: string }) {
  const query = useAlertConfigs();
  return (
    <div>
      <PageHeader title={alertId ? 'Alert' : 'Alerts'} lead="Searches that run against new episodes and tell you what matched." />
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
                    {alert.alertType} · {alert.enabled ? 'enabled' : 'paused'} · last run {formatDate(alert.lastRunDate)}
                  </p>
                </li>
              ))}
            </ul>
          );
        }}
      </QueryState>
      {alertId ? (
        <Section title="Matches">
          <AlertMatches alertId={alertId} />
        </Section>
      ) : null}
    </div>
  );
}

/** The episodes an alert matched, each with the mentions and where they start. */
function AlertMatches({ alertId }: { alertId: string }) {
  const query = useAlertMatches(alertId);
  return (
    <QueryState
      query={query}
      feature="Alert matches"
      isEmpty={(data) => data.matches.length === 0}
      empty={<EmptyState title="No matches yet">New episodes are checked as they are published.</EmptyState>}
    >
      {(data) => (
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
      )}
    </QueryState>
  );
}
