import { afterEach, describe, expect, it, vi } from 'vitest';

import { setApiKey } from '@/lib/auth-storage';
import { stubApi } from '@/test/render';

import { createQueryClient, prefetchSession } from './provider';

afterEach(() => {
  setApiKey(null);
  vi.unstubAllGlobals();
});

describe('prefetchSession', () => {
  it('asks for a signed-in visitor’s plan and preferences before anything renders', async () => {
    setApiKey('pk_test');
    const calls = stubApi((url) => {
      if (url.pathname === '/api/v1/teams/usage/current') return { body: { plan: 'Business' } };
      if (url.pathname === '/api/v1/users/preferences') return { body: { preferences: { search: { defaultResultsView: 'table' } } } };
      return undefined;
    });
    const client = createQueryClient();
    prefetchSession(client);
    await vi.waitFor(() => expect(calls.map((call) => call.url.pathname).sort()).toEqual(['/api/v1/teams/usage/current', '/api/v1/users/preferences']));
    // The answers land under the keys the hooks read, so the pages do not ask again.
    await vi.waitFor(() => expect(client.getQueryData(['user', 'preferences'])).toEqual({ search: { defaultResultsView: 'table' } }));
    expect(client.getQueryData(['usage', 'current', 'pk_test'])).toMatchObject({ plan: 'Business' });
  });

  it('asks for nothing when signed out', () => {
    const calls = stubApi(() => undefined);
    prefetchSession(createQueryClient());
    expect(calls).toHaveLength(0);
  });
});
