import { Link } from 'react-router';

import { BarChart } from '@/components/charts/charts';
import { PageHeader, Section } from '@/components/ui/page-header';
import { EmptyState, QueryState } from '@/components/ui/states';
import { useApiKey } from '@/features/auth/use-auth';
import { useCurrentUsage } from '@/features/auth/api/get-current-usage';
import { LatestEpisodes } from '@/features/episodes/components/latest-episodes';
import { formatDate, formatNumber } from '@/lib/format';
import { paths } from '@/config/paths';

import { useDailyUsage } from '../api/usage';

export function UsageSummary() {
  const apiKey = useApiKey();
  const usage = useCurrentUsage(apiKey);
  return (
    <QueryState query={usage} feature="Usage reporting">
      {(data) => (
        <>
          <p>
            Plan <strong className="plan-badge">{data.plan}</strong> · period {formatDate(data.periodStart)} – {formatDate(data.periodEnd)}
          </p>
          {data.aliases.length === 0 ? (
            <EmptyState title="No usage yet this period" />
          ) : (
            <ul className="usage-meters">
              {data.aliases.map((alias) => {
                const share = alias.limit ? Math.min(100, (alias.used / alias.limit) * 100) : 0;
                return (
                  <li key={alias.alias}>
                    <span>{alias.label}</span>
                    <meter min={0} max={alias.limit ?? Math.max(alias.used, 1)} value={alias.used} aria-label={alias.label} />
                    <span className="muted">
                      {formatNumber(alias.used)} / {alias.limit === null ? 'unlimited' : formatNumber(alias.limit)}
                      {alias.limit ? ` (${share.toFixed(0)}%)` : ''}
                    </span>
                  </li>
                );
              })}
            </ul>
          )}
        </>
      )}
    </QueryState>
  );
}

export function DailyUsageChart() {
  const query = useDailyUsage();
  return (
    <QueryState query={query} feature="Daily usage" isEmpty={(data) => data.days.length === 0} empty={<EmptyState title="No usage recorded yet" />}>
      {(data) => (
        <BarChart
          label="Calls per day"
          categoryKey="date"
          series={[{ key: 'totalUsage', label: 'Calls' }]}
          data={data.days.map((day) => ({ date: day.date.slice(5, 10), totalUsage: day.totalUsage }))}
        />
      )}
    </QueryState>
  );
}

export function DashboardPage() {
  return (
    <div>
      <PageHeader
        title="Dashboard"
        actions={
          <Link className="button" to={paths.search.pattern}>
            New search
          </Link>
        }
      />
      <Section title="Usage this period">
        <UsageSummary />
      </Section>
      <Section title="Daily usage">
        <DailyUsageChart />
      </Section>
      <Section title="Latest episodes">
        <LatestEpisodes limit={10} />
      </Section>
    </div>
  );
}
