import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { setApiKey } from '@/lib/auth-storage';
import { renderApp, stubApi } from '@/test/render';
import { specSection } from '@/test/spec';

// SPEC §4: the listed podcast statuses and the priority order (ascending, a missing one last).
const spec4 = specSection(4);
const STATUSES = spec4.match(/Listed podcast status: ([^.]+)\./)![1].split(', ');
const PRIORITIES_ASCENDING = spec4.match(/Priority, ascending: ([^.]+)\./)![1].split(', ');

const stateCounts = { prospect: 0, qualified: 0, pitched: 0, lost: 0, booked: 0, ignored: 0 };
const projectItem = (projectId: string, name: string, status: string, lastUpdated: string) => ({
  projectId,
  name,
  slug: projectId,
  teamId: 't1',
  createdAt: '2026-01-01',
  lastUpdated,
  createdBy: null,
  projectTypes: ['guest-booking'],
  status,
  listedPodcastsCount: 0,
  linkedGuestProfile: null,
  stateCounts,
  documentsCount: { total: 0, processed: 0 },
  recentActivities: [],
});

const listed = (id: string, title: string, status: string, priority: string | null, labels: string[] = [], activityHistory: unknown[] = []) => ({
  listedPodcastId: id,
  projectId: 'pr1',
  podcast: { podcastId: `pod-${id}`, titleOriginal: title, titleLatest: title, slug: `slug-${id}`, imageUrl: null },
  status,
  priority,
  labels,
  addedAt: '2026-11-01T00:00:00Z',
  updatedAt: '2026-11-02T00:00:00Z',
  activityHistory,
});

beforeEach(() => setApiKey('pl_key'));
afterEach(() => vi.unstubAllGlobals());

describe('the projects list', () => {
  it('orders pinned projects first, then ACTIVE, then the newest, and pins on request', async () => {
    const projects = [
      projectItem('old-active', 'Old active', 'ACTIVE', '2026-01-01'),
      projectItem('new-draft', 'New draft', 'DRAFT', '2026-11-01'),
      projectItem('new-active', 'New active', 'ACTIVE', '2026-10-01'),
      projectItem('archived', 'Archived one', 'ARCHIVED', '2026-11-05'),
    ];
    const calls = stubApi((url) => (url.pathname === '/api/v1/projects' ? { body: { options: {}, projects } } : undefined));
    renderApp('/app/projects');
    await screen.findAllByTestId('project-card');
    const names = () => screen.getAllByTestId('project-card').map((card) => within(card).getByRole('heading').textContent);
    expect(names()).toEqual(['New active', 'Old active', 'Archived one', 'New draft']);
    fireEvent.click(screen.getByRole('button', { name: 'Pin New draft' }));
    await waitFor(() => expect(names()[0]).toBe('New draft'));
    expect(screen.getByRole('button', { name: 'Unpin New draft' })).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(calls.at(-1)!.url.searchParams.get('pinnedIds')).toBe('new-draft'));
  });
});

describe('a project board', () => {
  const history = [
    { actionType: 'added-to-list', activityDate: '2026-11-01T00:00:00Z', fromValue: null, toValue: 'prospect', userDisplayName: 'Ana' },
    { actionType: 'update-state', activityDate: '2026-11-03T00:00:00Z', fromValue: 'prospect', toValue: 'pitched', userDisplayName: 'Ben' },
  ];
  const podcasts = [
    listed('l1', 'No priority show', 'pitched', null),
    listed('l2', 'Urgent show', 'pitched', 'urgent', [], history),
    listed('l3', 'Low show', 'pitched', 'low', ['automated']),
    listed('l4', 'Booked show', 'booked', 'high'),
  ];

  function stubProject() {
    return stubApi((url, init) => {
      if (url.pathname === '/api/v1/projects/pr1/details') return { body: { project: { ...projectItem('pr1', 'Spring pitch', 'ACTIVE', '2026-11-01'), listedPodcastsCount: 4 } } };
      if (url.pathname === '/api/v1/projects/pr1/podcasts/details') {
        const wanted = url.searchParams.get('priorities');
        return { body: { listedPodcasts: wanted ? podcasts.filter((p) => wanted.split(',').includes(p.priority ?? 'none')) : podcasts } };
      }
      if (url.pathname.startsWith('/api/v1/projects/pr1/podcasts/') && (init?.method === 'PATCH' || init?.method === 'DELETE'))
        return { body: { projectSlug: 'pr1', listedPodcastId: url.pathname.split('/').pop() } };
      if (url.pathname === '/api/v1/export/project/pr1/listed-podcasts') return { body: 'csv' };
      return undefined;
    });
  }

  it('has a column per status with priorities in ascending order, none last', async () => {
    stubProject();
    renderApp('/app/projects/pr1');
    await screen.findAllByTestId('board-card');
    for (const status of STATUSES) expect(screen.getByRole('region', { name: status })).toBeInTheDocument();
    const pitched = within(screen.getByRole('region', { name: 'pitched' }));
    const order = pitched.getAllByTestId('board-card').map((card) => within(card).getAllByRole('link')[0].textContent);
    const rank = (title: string) => {
      const priority = podcasts.find((p) => p.podcast.titleLatest === title)!.priority;
      return priority === null ? PRIORITIES_ASCENDING.length : PRIORITIES_ASCENDING.indexOf(priority);
    };
    expect(order.map((title) => rank(title!))).toEqual([...order.map((title) => rank(title!))].sort((a, b) => a - b));
    expect(order.at(-1)).toBe('No priority show');
  });

  it('changes status, priority and labels, shows a podcast history and removes a podcast', async () => {
    const calls = stubProject();
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderApp('/app/projects/pr1');
    fireEvent.change(await screen.findByRole('combobox', { name: 'Priority of No priority show' }), { target: { value: 'high' } });
    await waitFor(() => expect(calls.some((call) => call.init?.method === 'PATCH')).toBe(true));
    const patches = () => calls.filter((call) => call.init?.method === 'PATCH');
    expect(patches()[0].url.pathname).toBe('/api/v1/projects/pr1/podcasts/l1');
    expect(JSON.parse(String(patches()[0].init?.body))).toEqual({ priority: 'high' });

    fireEvent.click(screen.getByRole('checkbox', { name: 'Label guest-appearance on Low show' }));
    await waitFor(() => expect(patches()).toHaveLength(2));
    expect(JSON.parse(String(patches()[1].init?.body))).toEqual({ labels: ['automated', 'guest-appearance'] });

    fireEvent.change(screen.getByRole('combobox', { name: 'Status of Booked show' }), { target: { value: 'lost' } });
    await waitFor(() => expect(patches()).toHaveLength(3));
    expect(JSON.parse(String(patches()[2].init?.body))).toEqual({ state: 'lost' });

    const urgent = screen.getAllByTestId('board-card').find((card) => card.textContent?.includes('Urgent show'))!;
    fireEvent.click(within(urgent).getByRole('button', { name: 'History (2)' }));
    const lines = within(screen.getByRole('list', { name: 'History of Urgent show' })).getAllByRole('listitem');
    expect(lines[0]).toHaveTextContent('Ben moved Urgent show: prospect → pitched');
    expect(lines[1]).toHaveTextContent('Ana added Urgent show as prospect');

    fireEvent.click(within(urgent).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(calls.some((call) => call.init?.method === 'DELETE' && call.url.pathname === '/api/v1/projects/pr1/podcasts/l2')).toBe(true));
  });

  it('shows a change at once and puts it back when the server refuses it', async () => {
    let answer: { status?: number; body: unknown } = { body: { projectSlug: 'pr1', listedPodcastId: 'l3' } };
    let release: () => void = () => undefined;
    const gate = new Promise<void>((done) => (release = done));
    const calls: string[] = [];
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      calls.push(`${init?.method ?? 'GET'} ${url.pathname}`);
      const reply = (status: number, body: unknown) => new Response(JSON.stringify(status < 400 ? { status: 'OK', data: body } : body), { status });
      if (url.pathname === '/api/v1/projects/pr1/details') return reply(200, { project: projectItem('pr1', 'Spring pitch', 'ACTIVE', '2026-11-01') });
      if (url.pathname === '/api/v1/projects/pr1/podcasts/details') return reply(200, { listedPodcasts: podcasts });
      if (init?.method === 'PATCH') {
        await gate;
        return reply(answer.status ?? 200, answer.body);
      }
      return reply(404, { status: 'NOT_FOUND', data: { message: 'Route not found' } });
    });
    renderApp('/app/projects/pr1');
    const label = await screen.findByRole('checkbox', { name: 'Label mcp on Low show' });
    answer = { status: 400, body: { status: 'BAD_REQUEST', data: { message: 'Invalid label' } } };
    fireEvent.click(label);
    // Checked before the server has answered (its answer waits for the gate).
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Label mcp on Low show' })).toBeChecked());
    expect(calls).toContain('PATCH /api/v1/projects/pr1/podcasts/l3');
    release();
    expect(await screen.findByText('Invalid label')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Label mcp on Low show' })).not.toBeChecked());
  });

  it("links each listed podcast to an outreach email for it, the project and the project's guest", async () => {
    const guest = { id: 'g1', name: 'Sam Reed', slug: 'sam-reed', status: 'ACTIVE', imageUrl: null, linkedinUrl: null, companyName: null, appearancesCount: 0 };
    stubApi((url) => {
      if (url.pathname === '/api/v1/projects/pr1/details') return { body: { project: { ...projectItem('pr1', 'Spring pitch', 'ACTIVE', '2026-11-01'), linkedGuestProfile: guest } } };
      if (url.pathname === '/api/v1/projects/pr1/podcasts/details') return { body: { listedPodcasts: podcasts } };
      return undefined;
    });
    renderApp('/app/projects/pr1');
    const link = await screen.findByRole('link', { name: 'Outreach email to Booked show' });
    expect(link).toHaveAttribute('href', '/app/outreach/new?podcast-id=pod-l4&guest-profile-id=g1&project-id=pr1');
  });

  // Whether the six columns and the priority select fit a 1366 px window is measured in
  // Chromium (e2e/layout.mjs, "laptop width"); here, the structure that layout relies on.
  it('puts the artwork in the card\'s title row and gives the controls the card\'s whole width (regression: the priority select was squeezed beside the artwork, "No priorit")', async () => {
    stubProject();
    renderApp('/app/projects/pr1');
    const [card] = await screen.findAllByTestId('board-card');
    const select = within(card).getByRole('combobox', { name: /^Priority of / }) as HTMLSelectElement;
    expect(select.closest('.board-card-head')).toBeNull();
    expect(select.closest('.board-controls')).not.toBeNull();
    expect(card.querySelector('.board-card-head img, .board-card-head .artwork')).not.toBeNull();
    expect(screen.getAllByRole('region').filter((region) => region.classList.contains('board-column'))).toHaveLength(STATUSES.length);
  });

  it('filters the board by priority on the server', async () => {
    const calls = stubProject();
    renderApp('/app/projects/pr1');
    await screen.findAllByTestId('board-card');
    fireEvent.change(screen.getByRole('combobox', { name: 'Priority' }), { target: { value: 'none' } });
    await waitFor(() => expect(screen.getAllByTestId('board-card')).toHaveLength(1));
    expect(calls.at(-1)!.url.searchParams.get('priorities')).toBe('none');
  });

  it('lists every change of the project, newest first, on the activity page', async () => {
    stubProject();
    renderApp('/app/projects/pr1/activity');
    const list = await screen.findByRole('list', { name: 'Project activity' });
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      expect.stringContaining('Ben moved Urgent show: prospect → pitched'),
      expect.stringContaining('Ana added Urgent show as prospect'),
    ]);
  });

  it('exports the chosen columns and statuses in the chosen format', async () => {
    const calls = stubProject();
    renderApp('/app/projects/pr1/export');
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Socials' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'ignored' }));
    fireEvent.change(screen.getByRole('combobox', { name: 'Format' }), { target: { value: 'json' } });
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByText('Export downloaded.')).toBeInTheDocument();
    const post = calls.find((call) => call.url.pathname === '/api/v1/export/project/pr1/listed-podcasts')!;
    const body = JSON.parse(String(post.init?.body)) as { columns: string[]; format: string; listedPodcastStatesFilter: string[] };
    expect(body.format).toBe('json');
    expect(body.columns).toContain('socials');
    expect(body.listedPodcastStatesFilter).toEqual(STATUSES.filter((status) => status !== 'ignored'));
  });

  it('shows the server refusal of an export', async () => {
    stubApi((url) => {
      if (url.pathname === '/api/v1/projects/pr1/details') return { body: { project: projectItem('pr1', 'Spring pitch', 'ACTIVE', '2026-11-01') } };
      if (url.pathname === '/api/v1/export/project/pr1/listed-podcasts') return { status: 403, body: { status: 'FORBIDDEN', data: { message: 'no' } } };
      return undefined;
    });
    renderApp('/app/projects/pr1/export');
    fireEvent.click(await screen.findByRole('button', { name: 'Export' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('API request failed with error:');
  });
});

describe('project suggestions', () => {
  it('asks the agent for podcasts to add, shows why each matched, and adds one with the automated label', async () => {
    const assist = {
      projectId: 'pr1',
      slug: 'pr1',
      name: 'Spring pitch',
      pipeline: { ...stateCounts, prospect: 2, pitched: 1 },
      searchTerms: ['gardening', 'moths', 'like minded'],
      suggestions: [
        { podcastId: 'p9', slug: 'night-garden', title: 'Night Garden', imageUrl: null, genres: [], matchedTerms: ['gardening', 'moths'], likeListed: [], score: 1.8 },
        { podcastId: 'p7', slug: 'moth-hour', title: 'Moth Hour', imageUrl: null, genres: [], matchedTerms: ['moths'], likeListed: [{ podcastId: 'p1', title: 'Night Owls' }], score: 0.9 },
        { podcastId: 'p6', slug: 'dusk', title: 'Dusk', imageUrl: null, genres: [], matchedTerms: ['like minded'], likeListed: [{ podcastId: 'p1', title: 'Night Owls' }], score: 0.5 },
      ],
      nextSteps: ['1 pitched podcast(s) are waiting for an answer: follow up a week after the pitch.'],
    };
    const calls = stubApi((url, init) => {
      if (url.pathname === '/api/v1/projects/pr1/details') return { body: { project: projectItem('pr1', 'Spring pitch', 'ACTIVE', '2026-11-01') } };
      if (url.pathname === '/api/v1/agent/' && init?.method === 'POST') return { body: { kind: 'project', result: assist } };
      if (url.pathname === '/api/v1/projects/pr1/podcasts' && init?.method === 'POST') return { body: { listedPodcast: {} } };
      return undefined;
    });
    renderApp('/app/projects/pr1/suggestions');
    fireEvent.click(await screen.findByRole('button', { name: 'Suggest podcasts' }));
    const list = await screen.findByRole('list', { name: 'Suggested podcasts' });
    expect(within(list).getAllByRole('heading').map((heading) => heading.textContent)).toEqual(['Night Garden', 'Moth Hour', 'Dusk']);
    expect(within(list).getByText('Matches gardening, moths')).toBeInTheDocument();
    // A show related to one on the list says which.
    expect(within(list).getByText('Matches moths · Like Night Owls on your list')).toBeInTheDocument();
    // A term that starts with "like" is a term, not a listed show (regression: reasons were one list of strings, "like <title>" parsed back out).
    expect(within(list).getByText('Matches like minded · Like Night Owls on your list')).toBeInTheDocument();
    expect(screen.getByText('Searched for: gardening, moths, like minded; shows like the ones on the list')).toBeInTheDocument();
    const asked = calls.find((call) => call.url.pathname === '/api/v1/agent/');
    expect(JSON.parse(String(asked?.init?.body))).toEqual({ kind: 'project', projectId: 'pr1', limit: 10 });

    fireEvent.click(within(list).getByRole('button', { name: 'Add Moth Hour to the list' }));
    await waitFor(() => expect(within(list).getByText('Added')).toBeInTheDocument());
    const added = calls.find((call) => call.url.pathname === '/api/v1/projects/pr1/podcasts');
    expect(JSON.parse(String(added?.init?.body))).toEqual({ podcastId: 'p7', labels: ['automated'] });
    expect(screen.getByRole('list', { name: 'Next steps' })).toHaveTextContent('follow up a week after the pitch');
  });
});
