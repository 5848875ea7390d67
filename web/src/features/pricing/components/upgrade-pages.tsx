import { Link } from 'react-router';

import { PageHeader, Section } from '@/components/ui/page-header';
import { useAuth } from '@/features/auth/use-auth';
import { paths } from '@/config/paths';

import { LimitsTable, PlanCards } from './pricing-page';

export function UpgradePage() {
  const { tier } = useAuth();
  return (
    <div>
      <PageHeader title="Upgrade" lead={`You are on the ${tier} plan.`} />
      <PlanCards current={tier} />
      <Section title="Limits by plan">
        <LimitsTable />
      </Section>
    </div>
  );
}

export function OnboardingPage() {
  return (
    <div className="narrow">
      <PageHeader title="Welcome to Podlens" lead="A few places to start." />
      <ol className="steps">
        <li>
          <Link to={paths.search.pattern}>Search</Link> for podcasts or for the episodes where your topic came up.
        </li>
        <li>
          <Link to={paths.listNew.pattern}>Create a project</Link> to collect the shows you want to pitch.
        </li>
        <li>
          <Link to={paths.charts.pattern}>Browse the charts</Link> by country and category.
        </li>
      </ol>
      <Link className="button" to={paths.dashboard.pattern}>
        Go to the dashboard
      </Link>
    </div>
  );
}
