import { useSyncExternalStore } from 'react';

import { isPlanTier, type PlanTier } from '@/config/plans';
import { getApiKey, subscribeApiKey } from '@/lib/auth-storage';

import { useCurrentUsage } from './api/get-current-usage';

export function useApiKey(): string | null {
  return useSyncExternalStore(subscribeApiKey, getApiKey, () => null);
}

export type Auth = {
  apiKey: string | null;
  signedIn: boolean;
  /** The plan the server reports for the key; `public` when signed out or unknown. */
  tier: PlanTier;
  planKnown: boolean;
};

export function useAuth(): Auth {
  const apiKey = useApiKey();
  const usage = useCurrentUsage(apiKey);
  const plan = usage.data?.plan?.toLowerCase();
  const tier: PlanTier = apiKey && plan && isPlanTier(plan) ? plan : apiKey ? 'free' : 'public';
  return { apiKey, signedIn: apiKey !== null, tier, planKnown: !apiKey || usage.isSuccess };
}
