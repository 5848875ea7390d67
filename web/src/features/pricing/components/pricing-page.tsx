import { Link } from 'react-router';

import { PageHeader, Section } from '@/components/ui/page-header';
import { useAuth } from '@/features/auth/use-auth';
import { paths } from '@/config/paths';
import {
  CALL_TO_ACTION_LABELS,
  callToAction,
  LIMIT_ROWS,
  PLAN_DESCRIPTIONS,
  PLAN_TIERS,
  PRICED_PLANS,
  PRICING,
  type CallToAction,
  type PlanTier,
} from '@/config/plans';

const CTA_TARGET: Record<CallToAction, string> = {
  'create-account': paths.signUp.pattern,
  'try-now': paths.search.pattern,
  'manage-account': paths.teamSettings.pattern + '/billing',
  upgrade: paths.upgrade.pattern,
  'book-demo': paths.freePlanBookCall.pattern,
};

const title = (tier: PlanTier) => tier.charAt(0).toUpperCase() + tier.slice(1);

export function PlanCards({ current }: { current: PlanTier }) {
  return (
    <div className="plan-cards">
      {PRICED_PLANS.map((plan) => {
        const price = PRICING[plan];
        const action = callToAction(plan, current);
        return (
          <article key={plan} className={`plan-card${plan === current ? ' plan-current' : ''}`} data-plan={plan}>
            <h2>{title(plan)}</h2>
            <p className="muted">{PLAN_DESCRIPTIONS[plan]}</p>
            {price?.monthly ? (
              <p className="price">
                <strong>${price.monthly}</strong> / month
                <br />
                <span className="muted">or ${price.annual} / year</span>
              </p>
            ) : (
              <p className="price">
                <strong>Free</strong>
              </p>
            )}
            {plan === current ? <p className="badge">Your plan</p> : null}
            <Link className="button" to={CTA_TARGET[action]} data-cta={action}>
              {CALL_TO_ACTION_LABELS[action]}
            </Link>
          </article>
        );
      })}
    </div>
  );
}

export function LimitsTable() {
  return (
    <div className="table-wrap">
      <table className="table limits-table">
        <caption className="visually-hidden">Limits by plan</caption>
        <thead>
          <tr>
            <th scope="col">Limit</th>
            {PLAN_TIERS.map((tier) => (
              <th scope="col" key={tier}>
                {tier === 'public' ? 'Signed out' : title(tier)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {LIMIT_ROWS.map((row) => (
            <tr key={row.item}>
              <th scope="row">{row.item}</th>
              {PLAN_TIERS.map((tier) => (
                <td key={tier}>{row.values[tier]}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function PricingPage() {
  const { tier } = useAuth();
  return (
    <div>
      <PageHeader title="Pricing" lead="Start free. Upgrade when your team needs contacts, exports and the API." />
      <PlanCards current={tier} />
      <Section title="Limits by plan">
        <p className="muted">“-” means the feature is not part of the plan; “unlimited” has no cap.</p>
        <LimitsTable />
      </Section>
    </div>
  );
}
