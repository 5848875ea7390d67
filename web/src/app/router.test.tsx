import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { paths } from '@/config/paths';
import { setApiKey } from '@/lib/auth-storage';
import { specRoutes } from '@/test/spec';
import { renderApp, stubApi } from '@/test/render';

/** A concrete URL for a §2 pattern: each parameter gets a plausible value. */
function concrete(route: string): string {
  const values: Record<string, string> = {
    letter: 'a',
    podcastSlug: 'some-show',
    code: '404',
    section: 'team',
    subSection: 'members',
    slug: 'my-project',
    projectSlug: 'my-project',
    subPage: 'activity',
    episodeSlug: 'an-episode',
    alertId: 'alert-1',
    outreachId: 'outreach-1',
    token: 'abc',
  };
  return route.replace(/\{([^}]+)\}/g, (_, name: string) => values[name] ?? 'x');
}

const toPattern = (route: string) => route.replace(/\{([^}]+)\}/g, ':$1').replace(/:[a-zA-Z]+/g, ':p');

beforeEach(() => {
  stubApi(() => undefined);
  vi.stubGlobal('scrollTo', () => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('the router', () => {
  it('has a route for every pattern of SPEC §2', () => {
    const patterns = new Set(Object.values(paths).map((route) => toPattern(route.pattern)));
    const routes = specRoutes();
    const missing = routes.filter((route) => !patterns.has(toPattern(route.split('?')[0])));
    expect(missing).toEqual([]);
  });

  it.each(specRoutes().map((route) => [route]))('renders %s without falling through to the not-found page', async (route) => {
    setApiKey('pl_test_key');
    const url = concrete(route);
    const { unmount } = renderApp(url);
    await waitFor(() => expect(document.querySelector('main')).not.toBeNull());
    if (route !== '/errors/{code}') expect(screen.queryByText('Page not found')).toBeNull();
    unmount();
  });

  it('answers an unknown address with the not-found page', async () => {
    renderApp('/no/such/page');
    expect(await screen.findByText('Page not found')).toBeInTheDocument();
  });

  it('sends the podcast slug to the podcast page, and directory words to the directory', async () => {
    const calls = stubApi(() => undefined);
    renderApp('/podcasts/directory');
    expect(await screen.findByRole('heading', { name: 'Podcast directory' })).toBeInTheDocument();
    expect(calls.some((call) => call.url.pathname.startsWith('/api/v1/podcasts/directory'))).toBe(false);
  });
});
