import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { getApiKey, setApiKey } from '@/lib/auth-storage';
import { renderApp, stubApi } from '@/test/render';
import { specSection } from '@/test/spec';

afterEach(() => vi.unstubAllGlobals());

describe('signing in and out', () => {
  it('signs out to /sign-in with the message of SPEC §2', async () => {
    stubApi(() => undefined);
    setApiKey('pl_key');
    const { router } = renderApp('/app/sign-out');
    const message = specSection(2).match(/with the message '([^']+)'/)![1];
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(getApiKey()).toBeNull();
  });

  it('refuses a bad API key with the server message and keeps a good one', async () => {
    stubApi((url, init) => {
      if (url.pathname !== '/api/v1/teams/usage/current') return undefined;
      const key = (init?.headers as Record<string, string>).Authorization;
      if (key !== 'pl_good') return { status: 401, body: { status: 'UNAUTHORIZED', data: { message: 'Invalid authorization token' } } };
      return { body: { plan: 'business', aliases: [], featureFlags: {}, periodStart: '2026-11-01', periodEnd: '2026-11-30', totalUsed: 0 } };
    });
    const { router } = renderApp('/sign-in');
    fireEvent.change(screen.getByLabelText('API key'), { target: { value: 'pl_bad' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Invalid authorization token')).toBeInTheDocument();
    expect(getApiKey()).toBeNull();
    fireEvent.change(screen.getByLabelText('API key'), { target: { value: 'pl_good' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Dashboard' }, { timeout: 5000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/app');
    expect(getApiKey()).toBe('pl_good');
  });
});
