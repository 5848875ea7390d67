import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { setApiKey } from '@/lib/auth-storage';
import { renderApp, stubApi } from '@/test/render';
import { specSection } from '@/test/spec';

const teamPodcast = (podcastId: string, title: string, flags: { sync: boolean; blacklist: boolean }) => ({
  addedByUserId: 'u1',
  addedReason: 'listed-podcast',
  airtableRecordId: null,
  blacklist: flags.blacklist,
  createdAt: '2026-10-01T00:00:00Z',
  lastAirtableErrorSyncDate: null,
  lastAirtableSync: null,
  podcast: { id: podcastId, slug: `slug-${podcastId}`, title, titleLatest: title, author: null, authorityScore: null, genres: [], imageUrl: null, language: 'en', lastEpisodePublishedAt: null },
  podcastId,
  projects: [{ projectId: 'pr1', addedByUserId: 'u1', listedPodcastState: 'prospect' }],
  sync: flags.sync,
  teamId: 't1',
});

beforeEach(() => setApiKey('pl_key'));
afterEach(() => vi.unstubAllGlobals());

describe('team settings', () => {
  it('sets and clears the sync and blacklist flags of a team podcast, and removes one', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const calls = stubApi((url, init) => {
      if (url.pathname === '/api/v1/teams/podcasts' && !init?.method?.match(/PUT|DELETE/))
        return { body: { total: 2, totalFiltered: 2, teamPodcasts: [teamPodcast('p1', 'Garden Talk', { sync: false, blacklist: false }), teamPodcast('p2', 'Loud Show', { sync: true, blacklist: false })] } };
      if (url.pathname.startsWith('/api/v1/teams/podcasts/') && init?.method === 'PUT') return { body: { teamPodcast: teamPodcast('p1', 'Garden Talk', { sync: true, blacklist: false }) } };
      if (url.pathname.startsWith('/api/v1/teams/podcasts/') && init?.method === 'DELETE') return { body: { message: 'removed' } };
      return undefined;
    });
    renderApp('/app/team-settings/team-podcasts');
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Sync Garden Talk' }));
    await waitFor(() => expect(calls.some((call) => call.init?.method === 'PUT')).toBe(true));
    const put = calls.find((call) => call.init?.method === 'PUT')!;
    expect(put.url.pathname).toBe('/api/v1/teams/podcasts/p1');
    // SPEC §3/§4: sync and blacklist are independent flags; the other keeps its value.
    expect(JSON.parse(String(put.init?.body))).toEqual({ sync: true, blacklist: false });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Blacklist Loud Show' }));
    await waitFor(() => expect(calls.filter((call) => call.init?.method === 'PUT')).toHaveLength(2));
    expect(JSON.parse(String(calls.filter((call) => call.init?.method === 'PUT')[1].init?.body))).toEqual({ sync: true, blacklist: true });
    const row = screen.getAllByTestId('team-podcast').find((item) => item.textContent?.includes('Loud Show'))!;
    fireEvent.click(within(row).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(calls.some((call) => call.init?.method === 'DELETE' && call.url.pathname === '/api/v1/teams/podcasts/p2')).toBe(true));
  });

  it('asks the server for the blacklist only on the podcast blacklist section', async () => {
    const calls = stubApi((url) => (url.pathname === '/api/v1/teams/podcasts' ? { body: { total: 3, totalFiltered: 0, teamPodcasts: [] } } : undefined));
    renderApp('/app/team-settings/podcast-blacklist');
    expect(await screen.findByText('No blacklisted podcasts')).toBeInTheDocument();
    expect(calls.find((call) => call.url.pathname === '/api/v1/teams/podcasts')!.url.searchParams.get('blacklist')).toBe('true');
  });

  it('shows each member’s usage by kind of call on the search usage section', async () => {
    const members = [
      { userId: 'u1', email: 'ana@example.com', displayName: 'Ana', totalUsage: 42, usageByAlias: { search: 40, export: 2 } },
      { userId: 'u2', email: 'ben@example.com', displayName: null, totalUsage: 3, usageByAlias: { search: 3 } },
    ];
    const calls = stubApi((url) => (url.pathname === '/api/v1/teams/usage/members' ? { body: { members } } : undefined));
    renderApp('/app/team-settings/search-usage');
    const table = await screen.findByRole('table', { name: 'Usage by member' });
    const ana = within(table).getByRole('row', { name: /Ana/ });
    expect(within(ana).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['2', '40', '42']);
    expect(within(table).getByRole('row', { name: /ben@example.com/ })).toHaveTextContent('3');
    fireEvent.change(screen.getByRole('combobox', { name: 'Over the last' }), { target: { value: '90' } });
    await waitFor(() => expect(calls.filter((call) => call.url.pathname === '/api/v1/teams/usage/members').at(-1)!.url.searchParams.get('window')).toBe('90'));
  });

  it('lists the team’s requests on the activity history section, a page at a time', async () => {
    const request = (n: number) => ({
      podcastTitle: `Show ${n}`,
      podcastImageUrl: null,
      podcastId: `p${n}`,
      podcastSlug: `show-${n}`,
      requestedAt: '2026-11-01T00:00:00Z',
      requestedByUserId: 'u1',
      completedAt: n === 1 ? '2026-11-02T00:00:00Z' : null,
      failureReason: null,
      requestType: 'transcription',
      episodeId: `e${n}`,
      episodeTitle: `Episode ${n}`,
      episodeImageUrl: null,
      episodeSlug: `episode-${n}`,
    });
    const calls = stubApi((url) => {
      if (url.pathname !== '/api/v1/teams/request-history') return undefined;
      const skip = Number(url.searchParams.get('skip') ?? 0);
      return { body: { totalRequests: 30, requests: skip === 0 ? [request(1), request(2)] : [request(26)] } };
    });
    renderApp('/app/team-settings/activity-history');
    const list = await screen.findByRole('list', { name: 'Team requests' });
    expect(within(list).getAllByRole('listitem')[0]).toHaveTextContent(/Transcriptions · Show 1 · Episode 1 · completed/);
    fireEvent.click(screen.getByRole('button', { name: 'Older' }));
    expect(await screen.findByText('Show 26')).toBeInTheDocument();
    const last = calls.at(-1)!.url.searchParams;
    expect(last.get('skip')).toBe('25');
    expect(last.get('limit')).toBe('25');
    // The server lists one kind at a time: transcriptions first.
    const history = calls.filter((call) => call.url.pathname === '/api/v1/teams/request-history');
    expect(history.every((call) => call.url.searchParams.get('requestType') === 'transcription')).toBe(true);
  });

  it('says plainly that custom prompts and integrations are not available on this server', async () => {
    stubApi(() => undefined);
    const view = renderApp('/app/team-settings/custom-prompts');
    expect(await screen.findByText('Custom prompts is not available on this server yet')).toBeInTheDocument();
    view.unmount();
    renderApp('/app/team-settings/integrations');
    expect(await screen.findByText('Integrations is not available on this server yet')).toBeInTheDocument();
  });
});

describe('user settings', () => {
  it('shows who is signed in on the profile section', async () => {
    stubApi((url) => (url.pathname === '/api/v1/auth/session' ? { body: { userId: 'u1', email: 'ana@example.com', teamId: 't1', plan: 'BUSINESS', displayName: 'Ana Lopez' } } : undefined));
    renderApp('/app/user-settings');
    expect(await screen.findByText('ana@example.com')).toBeInTheDocument();
    // The default section is the current tab, though the address does not name it.
    expect(within(screen.getByRole('navigation', { name: 'User settings' })).getByRole('link', { name: 'Profile' })).toHaveAttribute('aria-current', 'page');
    expect(within(screen.getByRole('navigation', { name: 'User settings' })).getByRole('link', { name: 'Outreach templates' })).not.toHaveAttribute('aria-current');
    expect(screen.getByRole('textbox', { name: 'Your name' })).toHaveValue('Ana Lopez');
    expect(screen.getByText('business')).toBeInTheDocument();
  });

  it('saves the name the user chose', async () => {
    let displayName: string | null = null;
    const patches: unknown[] = [];
    stubApi((url, init) => {
      if (url.pathname !== '/api/v1/auth/session') return undefined;
      if (init?.method === 'PATCH') {
        const body = JSON.parse(String(init.body));
        patches.push(body);
        displayName = body.displayName.trim() || null;
      }
      return { body: { userId: 'u1', email: 'ana@example.com', teamId: 't1', plan: 'BUSINESS', displayName } };
    });
    renderApp('/app/user-settings');
    const input = await screen.findByRole('textbox', { name: 'Your name' });
    expect(input).toHaveValue('');
    fireEvent.change(input, { target: { value: 'Ana Lopez' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save name' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Saved');
    expect(patches).toEqual([{ displayName: 'Ana Lopez' }]);
    // The button keeps the focus it had; editing again takes "Saved" away.
    expect(screen.getByRole('button', { name: 'Save name' })).toBeEnabled();
    fireEvent.change(input, { target: { value: 'Ana L.' } });
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('ties a refused name to the field and says why in words', async () => {
    stubApi((url, init) => {
      if (url.pathname !== '/api/v1/auth/session') return undefined;
      if (init?.method === 'PATCH') return { status: 400, body: { status: 'BAD_REQUEST', data: { message: 'displayName must not contain control characters' } } };
      return { body: { userId: 'u1', email: 'ana@example.com', teamId: 't1', plan: 'BUSINESS', displayName: null } };
    });
    renderApp('/app/user-settings');
    const input = await screen.findByRole('textbox', { name: 'Your name' });
    fireEvent.change(input, { target: { value: 'Ana\u0007' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save name' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The name must not contain control characters');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription(/The name must not contain control characters/);
  });

  it('lists the five built-in outreach templates of SPEC §3', async () => {
    const names = specSection(3).match(/provided: ([^,]+(?:, [a-zA-Z]+)+), with/)![1].split(', ');
    expect(names).toHaveLength(5);
    const builtIn = names.map((id) => ({
      id, slug: id, name: `The ${id} one`, context: 'guest-booking', description: null,
      template: `Hi [Host first name], this is the ${id} template.`, ownerUserId: null, updatedAt: null, builtIn: true,
    }));
    stubApi((url) =>
      url.pathname === '/api/v1/outreach/templates' ? { body: { templates: builtIn, placeholders: ['[Host First Name]'] } } : undefined,
    );
    renderApp('/app/user-settings/outreach-templates');
    const list = await screen.findByRole('list', { name: 'Outreach templates' });
    expect(within(list).getAllByRole('heading').map((heading) => heading.textContent)).toEqual(names.map((id) => `The ${id} one`));
    expect(within(list).getAllByText(/\[Host first name\]/)).toHaveLength(5);
    expect(within(list).getAllByText('Built-in')).toHaveLength(5);
    expect(within(list).queryByRole('button', { name: /^Edit/ })).toBeNull();
  });

  it("creates a template and lets its owner alone edit it (SPEC §5: an empty description becomes null)", async () => {
    const [min, max] = specSection(5).match(/Template name (\d+)-(\d+) characters/)!.slice(1).map(Number);
    const mine = { id: 't1', slug: 'warm-intro', name: 'Warm intro', context: 'guest-booking', description: null, template: 'Hello [Host First Name]', ownerUserId: 'u1', updatedAt: '2026-11-02T00:00:00Z', builtIn: false };
    const theirs = { ...mine, id: 't2', slug: 'cold', name: 'Cold pitch', ownerUserId: 'u2' };
    let templates: Record<string, unknown>[] = [mine, theirs];
    const writes: { method: string; path: string; body: unknown }[] = [];
    stubApi((url, init) => {
      const method = init?.method ?? 'GET';
      if (url.pathname === '/api/v1/auth/session') return { body: { userId: 'u1', email: 'ana@example.com', displayName: 'Ana', teamId: 't', plan: 'business' } };
      if (!url.pathname.startsWith('/api/v1/outreach/templates')) return undefined;
      if (method === 'GET') return { body: { templates, placeholders: ['[Host First Name]', '[Podcast Name]'] } };
      const body = JSON.parse(String(init?.body ?? 'null'));
      writes.push({ method, path: url.pathname, body });
      const created = { ...mine, id: 't3', ...body };
      templates = [...templates, created];
      return { body: { template: created } };
    });
    renderApp('/app/user-settings/outreach-templates');
    const list = await screen.findByRole('list', { name: 'Outreach templates' });
    expect(await within(list).findByRole('button', { name: 'Edit Warm intro' })).toBeInTheDocument();
    expect(within(list).queryByRole('button', { name: 'Edit Cold pitch' })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'New template' }));
    const form = screen.getByRole('form', { name: 'New outreach template' });
    expect(within(form).getByText('Placeholders: [Host First Name] [Podcast Name]')).toBeInTheDocument();
    await userEvent.type(within(form).getByLabelText('Name'), 'ab');
    fireEvent.change(within(form).getByLabelText('Email text'), { target: { value: 'Hi [Host First Name]' } });
    await userEvent.click(within(form).getByRole('button', { name: 'Create template' }));
    expect(within(form).getByText(`Template name must be between ${min} and ${max} characters`)).toBeInTheDocument();
    expect(writes).toHaveLength(0);
    await userEvent.clear(within(form).getByLabelText('Name'));
    await userEvent.type(within(form).getByLabelText('Name'), '  Follow-up  ');
    await userEvent.type(within(form).getByLabelText('Description (optional)'), '   ');
    await userEvent.click(within(form).getByRole('button', { name: 'Create template' }));
    await waitFor(() => expect(writes).toHaveLength(1));
    expect(writes[0]).toEqual({ method: 'POST', path: '/api/v1/outreach/templates', body: { name: 'Follow-up', description: null, template: 'Hi [Host First Name]' } });
    expect(await within(list).findByRole('heading', { name: 'Follow-up' })).toBeInTheDocument();
  });
});
