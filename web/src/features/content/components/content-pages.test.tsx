import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { renderApp, stubApi } from '@/test/render';
import { specRoutes } from '@/test/spec';

afterEach(() => vi.unstubAllGlobals());

const headingsOf = (level: number) => screen.getAllByRole('heading', { level }).map((heading) => heading.textContent);

describe('the content pages', () => {
  it.each([
    ['/about', 'About Podlens', [], 'About Podlens · Podlens'],
    ['/privacy', 'Privacy policy', ['What we store', 'In your browser', 'Your rights'], 'Privacy policy · Podlens'],
    ['/terms', 'Terms of service', [], 'Terms of service · Podlens'],
  ])('%s renders its headings without calling the API', async (route, title, sections, documentTitle) => {
    // SPEC §2 lists the page as a public route.
    expect(specRoutes()).toContain(route);
    const calls = stubApi(() => undefined);
    renderApp(route);
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(headingsOf(1)).toEqual([title]);
    if (sections.length > 0) expect(headingsOf(2)).toEqual(sections);
    await waitFor(() => expect(document.title).toBe(documentTitle));
    expect(screen.queryByText('Page not found')).toBeNull();
    expect(calls.filter((call) => call.url.pathname.startsWith('/api/'))).toHaveLength(0);
  });

  it('the about page points visitors to an account and to pricing', async () => {
    stubApi(() => undefined);
    renderApp('/about');
    expect(await screen.findByRole('link', { name: 'Create a free account' })).toHaveAttribute('href', '/sign-up');
    expect(screen.getByRole('link', { name: 'See pricing' })).toHaveAttribute('href', '/pricing');
  });
});
