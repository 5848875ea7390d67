import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { setApiKey } from '@/lib/auth-storage';
import { renderApp, stubApi } from '@/test/render';

const project = (projectId: string, name: string) => ({
  projectId,
  name,
  slug: projectId,
  teamId: 't1',
  createdAt: '2026-01-01',
  lastUpdated: '2026-11-01',
  createdBy: null,
  projectTypes: ['guest-booking'],
  status: 'ACTIVE',
  listedPodcastsCount: 0,
  linkedGuestProfile: null,
  stateCounts: { prospect: 0, qualified: 0, pitched: 0, lost: 0, booked: 0, ignored: 0 },
  documentsCount: { total: 0, processed: 0 },
  recentActivities: [],
});
const projects = [project('spring', 'Spring pitch'), project('autumn', 'Autumn pitch')];
const session = { userId: 'u1', email: 'ana@example.com', teamId: 't1', plan: 'BUSINESS', displayName: 'Ana Lopez' };
const usage = { plan: 'BUSINESS', periodStart: '2026-11-01', periodEnd: '2026-11-30', aliases: [] };

type Body = Record<string, unknown>;

/** A server with preferences: GET answers `stored`, PUT stores the body (or answers `refusal`). */
function stubServer(stored: Body, refusal?: { status: number; body: unknown }) {
  let current = stored;
  const puts: Body[] = [];
  const calls = stubApi((url, init) => {
    if (url.pathname === '/api/v1/users/preferences') {
      if (init?.method === 'PUT') {
        const body = JSON.parse(String(init.body)) as Body;
        puts.push(body);
        if (refusal) return refusal;
        current = body;
      }
      return { body: { preferences: current } };
    }
    if (url.pathname === '/api/v1/auth/session') return { body: session };
    if (url.pathname === '/api/v1/teams/usage/current') return { body: usage };
    if (url.pathname === '/api/v1/projects') return { body: { options: {}, projects } };
    return undefined;
  });
  return { calls, puts };
}

beforeEach(() => setApiKey('pl_key'));
afterEach(() => vi.unstubAllGlobals());

describe('preferences on the profile section', () => {
  it('shows the stored preferences and saves every change, keeping the keys it does not show', async () => {
    const stored = {
      projects: { favoriteProjectIds: ['autumn'], lastSelectedProjectSlug: 'autumn' },
      showAdditionalPodcastDirectories: true,
      search: { defaultResultsView: 'list', defaultSearchFilters: { languages: ['en'] }, export: { columnsToNotExport: ['socials'] } },
    };
    const { puts } = stubServer(stored);
    renderApp('/app/user-settings');
    const form = await screen.findByRole('form', { name: 'Preferences' });
    expect(within(form).getByRole('radio', { name: 'List' })).toBeChecked();
    expect(within(form).getByRole('checkbox', { name: 'Socials' })).toBeChecked();
    expect(within(form).getByLabelText('Languages')).toHaveValue('en');
    expect(await within(form).findByRole('checkbox', { name: 'Autumn pitch' })).toBeChecked();

    await userEvent.click(within(form).getByRole('radio', { name: 'Table' }));
    await userEvent.click(within(form).getByRole('checkbox', { name: 'Apple reviews' }));
    await userEvent.click(within(form).getByRole('checkbox', { name: 'Spring pitch' }));
    fireEvent.change(within(form).getByLabelText('Languages'), { target: { value: 'en, fr' } });
    await userEvent.click(within(form).getByRole('button', { name: 'Save preferences' }));

    expect(await screen.findByText('Preferences saved.')).toBeInTheDocument();
    expect(puts).toEqual([
      {
        projects: { favoriteProjectIds: ['autumn', 'spring'], lastSelectedProjectSlug: 'autumn' },
        showAdditionalPodcastDirectories: true,
        search: { defaultResultsView: 'table', defaultSearchFilters: { languages: ['en', 'fr'] }, export: { columnsToNotExport: ['socials', 'appleReviews'] } },
      },
    ]);
  });

  it("shows the server's refusal and keeps the form", async () => {
    const { puts } = stubServer({}, { status: 400, body: { status: 'BAD_REQUEST', data: { message: 'Unknown preference "search.columns"' } } });
    renderApp('/app/user-settings');
    const form = await screen.findByRole('form', { name: 'Preferences' });
    await userEvent.click(within(form).getByRole('radio', { name: 'Table' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Save preferences' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Unknown preference "search.columns"');
    expect(puts).toHaveLength(1);
    expect(screen.queryByText('Preferences saved.')).toBeNull();
    expect(within(form).getByRole('radio', { name: 'Table' })).toBeChecked();
  });

  it('says so when the server has no preferences', async () => {
    stubApi((url) => (url.pathname === '/api/v1/auth/session' ? { body: session } : undefined));
    renderApp('/app/user-settings');
    expect(await screen.findByText('Preferences is not available on this server yet')).toBeInTheDocument();
  });
});

describe('preferences where they apply', () => {
  it('opens the search page in the saved view with the saved filters, which the search sends', async () => {
    const { calls } = stubServer({ search: { defaultResultsView: 'table', defaultSearchFilters: { languages: ['fr'], minTotalEpisodes: 10 } } });
    renderApp('/app/search');
    const view = await screen.findByRole('group', { name: 'Results view' });
    expect(within(view).getByRole('button', { name: 'Table' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByLabelText('Languages')).toHaveValue('fr');
    fireEvent.change(screen.getByLabelText('Search term 1'), { target: { value: 'climate' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(calls.some((call) => call.url.pathname === '/api/v1/search/podcasts')).toBe(true));
    const body = JSON.parse(String(calls.find((call) => call.url.pathname === '/api/v1/search/podcasts')!.init?.body)) as Body;
    expect(body.languages).toEqual(['fr']);
    expect(body.minTotalEpisodes).toBe(10);
  });

  it('pins a project in the server preferences, not in the browser', async () => {
    const { puts, calls } = stubServer({ search: { defaultResultsView: 'table' } });
    renderApp('/app/projects');
    await screen.findAllByTestId('project-card');
    await userEvent.click(screen.getByRole('button', { name: 'Pin Autumn pitch' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({ search: { defaultResultsView: 'table' }, projects: { favoriteProjectIds: ['autumn'] } });
    expect(await screen.findByRole('button', { name: 'Unpin Autumn pitch' })).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(calls.at(-1)!.url.searchParams.get('pinnedIds')).toBe('autumn'));
    expect(window.localStorage.getItem('podlens.pinnedProjects')).toBeNull();
  });

  it('ticks every export column but the ones the user leaves out', async () => {
    stubApi((url) => {
      if (url.pathname === '/api/v1/users/preferences') return { body: { preferences: { search: { export: { columnsToNotExport: ['description', 'socials'] } } } } };
      if (url.pathname === '/api/v1/projects/spring/details') return { body: { project: projects[0] } };
      return undefined;
    });
    renderApp('/app/projects/spring/export');
    const form = await screen.findByRole('form', { name: 'Export podcasts' });
    expect(within(form).getByRole('checkbox', { name: 'Description' })).not.toBeChecked();
    expect(within(form).getByRole('checkbox', { name: 'Socials' })).not.toBeChecked();
    expect(within(form).getByRole('checkbox', { name: 'Authority score' })).toBeChecked();
    expect(within(form).getByRole('checkbox', { name: 'Basic info' })).toBeChecked();
  });
});
