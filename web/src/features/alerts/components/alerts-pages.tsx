import { Link } from 'react-router';

import { PageHeader } from '@/components/ui/page-header';
import { EmptyState, QueryState } from '@/components/ui/states';
import { formatDate } from '@/lib/format';
import { links } from '@/config/paths';

import { useAlertConfigs } from '../api/alerts';

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
    </div>
  );
}
