import { useState, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';

import { currentUsageQueryOptions } from '@/features/auth/api/get-current-usage';
import { preferencesQueryOptions } from '@/features/settings/api/preferences';
import { ApiClientError } from '@/lib/api-client';
import { getApiKey, getSessionEmail } from '@/lib/auth-storage';

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // Client errors (4xx) will not change on retry; network and server errors may.
        retry: (count, error) =>
          count < 2 && !(error instanceof ApiClientError && error.httpStatus !== null && error.httpStatus < 500),
      },
    },
  });
}

/** A signed-in visitor's plan and preferences are asked for as soon as the app's code
 * runs, beside its first render rather than after it: the search page waits for both
 * before it searches (the plan bounds the request, the preferences hold default
 * filters). The keys are the ones `useAuth` and `usePreferences` read. */
export function prefetchSession(client: QueryClient) {
  const apiKey = getApiKey();
  const sessionEmail = getSessionEmail();
  const credential = apiKey ?? (sessionEmail ? `session:${sessionEmail}` : null);
  if (credential === null) return;
  void client.prefetchQuery(currentUsageQueryOptions(credential));
  void client.prefetchQuery(preferencesQueryOptions());
}

export function AppProvider({ children }: { children: ReactNode }) {
  const [client] = useState(() => {
    const created = createQueryClient();
    prefetchSession(created);
    return created;
  });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
