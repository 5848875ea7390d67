import { Link } from 'react-router';

import { paths } from '@/config/paths';
import type { PlanTier } from '@/config/plans';

/** Where a locked feature is had: "sign up" for a visitor, else "<plan> plan" to the pricing page. */
export function UpgradeLink({ tier, needed }: { tier: PlanTier; needed: PlanTier }) {
  return tier === 'public' ? <Link to={paths.signUp.pattern}>sign up</Link> : <Link to={paths.pricing.pattern}>{needed} plan</Link>;
}
