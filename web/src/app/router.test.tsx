import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { SiteLayout } from '@/components/layouts/site-layout';
import { paths } from '@/config/paths';
import { setApiKey } from '@/lib/auth-storage';
import { specRoutes } from '@/test/spec';
import { renderApp, stubApi } from '@/test/render';

import { lazyPage } from './pages';
import { createQueryClient } from './provider';

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
    // Each page's code loads when it is first shown (tests load it up front): the page is in place.
    await waitFor(() => expect(screen.queryByText('Loading page…')).toBeNull());
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

describe('a page of the app', () => {
  it("shows the site and 'Loading page…' until the page's code is loaded, then the page at once", async () => {
    let release: () => void = () => {};
    const arrived = new Promise<void>((resolve) => (release = resolve));
    const Greeting = lazyPage(async () => {
      await arrived;
      return { Greeting: () => <p>Hello from the page</p> };
    }, 'Greeting');
    const show = () => {
      const router = createMemoryRouter([{ element: <SiteLayout />, children: [{ path: '/', element: <Greeting /> }] }]);
      return render(
        <QueryClientProvider client={createQueryClient()}>
          <RouterProvider router={router} />
        </QueryClientProvider>,
      );
    };

    const first = show();
    expect(await screen.findByText('Loading page…')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Podlens home' })).toBeInTheDocument();
    release();
    expect(await screen.findByText('Hello from the page')).toBeInTheDocument();
    expect(screen.queryByText('Loading page…')).toBeNull();
    first.unmount();

    show();
    expect(screen.getByText('Hello from the page')).toBeInTheDocument();
  });
});
