import { useEffect, useSyncExternalStore } from 'react';

import { isPlanTier, type PlanTier } from '@/config/plans';
import { ApiClientError } from '@/lib/api-client';
import { getApiKey, getSessionEmail, setSessionEmail, subscribeApiKey } from '@/lib/auth-storage';

import { useCurrentUsage } from './api/get-current-usage';

export function useApiKey(): string | null {
  return useSyncExternalStore(subscribeApiKey, getApiKey, () => null);
}

export function useSessionEmail(): string | null {
  return useSyncExternalStore(subscribeApiKey, getSessionEmail, () => null);
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
  const sessionEmail = useSessionEmail();
  // Who the usage query asks for: the key, else the cookie session.
  const credential = apiKey ?? (sessionEmail ? `session:${sessionEmail}` : null);
  const usage = useCurrentUsage(credential);
  const expired = !apiKey && sessionEmail !== null && usage.error instanceof ApiClientError && usage.error.isUnauthorized;
  useEffect(() => {
    // The session ended on the server (expired, signed out elsewhere): show signed-out screens.
    if (expired) setSessionEmail(null);
  }, [expired]);
  const plan = usage.data?.plan?.toLowerCase();
  const tier: PlanTier = credential && plan && isPlanTier(plan) ? plan : credential ? 'free' : 'public';
  return { apiKey, signedIn: credential !== null, tier, planKnown: !credential || usage.isSuccess };
}
