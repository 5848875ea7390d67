import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { setApiKey } from '@/lib/auth-storage';
import { renderApp, stubApi } from '@/test/render';
import { specLimitsTable, specSection } from '@/test/spec';

beforeEach(() => setApiKey('pl_key'));
afterEach(() => vi.unstubAllGlobals());

const alertConfig = { id: 'a1', alertName: 'Ana Lopez mentions', alertType: 'person', enabled: true, lastRunDate: '2026-11-01' };
const mention = (id: string, snippet: string, passesFilters: boolean) => ({ id, startSecond: 754, snippet, passesFilters, filterReasons: passesFilters ? [] : ['ad'], labels: [], playUrl: `https://example.com/a.mp3#t=754` });
const match = {
  id: 'm1',
  alertConfig: { id: 'a1', name: 'Ana Lopez mentions', type: 'person' },
  status: 'kept',
  filterReasons: [],
  episode: { id: 'e1', slug: 'soil-and-climate', title: 'Soil and climate', publishedAt: '2026-11-02', imageUrl: null },
  podcast: { id: 'p1', slug: 'climate-hour', title: 'Climate Hour' },
  appearance: { role: 'guest', source: 'people_data' },
  mentionCount: 2,
  keptMentionCount: 1,
  syndicatedEpisodeIds: [],
  firstMatchedAt: '2026-11-02',
  mentions: [mention('x1', 'Ana Lopez joins us to talk soil', true), mention('x2', 'sponsored by Ana Lopez shoes', false)],
};

describe('an alert', () => {
  it('shows the episodes it matched with the mentions that passed the filters', async () => {
    const calls = stubApi((url) => {
      if (url.pathname === '/api/v1/alerts/alert-configs') return { body: { alertConfigs: [alertConfig], total: 1 } };
      if (url.pathname === '/api/v1/alerts/matches') return { body: { options: {}, total: 1, matches: [match] } };
      return undefined;
    });
    renderApp('/app/alerts/a1');
    const list = await screen.findByRole('list', { name: 'Alert matches' });
    expect(within(list).getByRole('link', { name: 'Soil and climate' })).toHaveAttribute('href', '/app/podcasts/climate-hour/soil-and-climate');
    expect(within(list).getByText('Ana Lopez joins us to talk soil')).toBeInTheDocument();
    expect(within(list).queryByText('sponsored by Ana Lopez shoes')).toBeNull();
    expect(within(list).getByText(/1 of 2 mentions kept/)).toBeInTheDocument();
    expect(within(list).getByRole('link', { name: 'Play from 12 min' })).toHaveAttribute('href', match.mentions[0].playUrl);
    expect(calls.find((call) => call.url.pathname === '/api/v1/alerts/matches')!.url.searchParams.get('alertConfigId')).toBe('a1');
  });

  it('says when an alert has matched nothing yet', async () => {
    stubApi((url) => {
      if (url.pathname === '/api/v1/alerts/alert-configs') return { body: { alertConfigs: [alertConfig], total: 1 } };
      if (url.pathname === '/api/v1/alerts/matches') return { body: { options: {}, total: 0, matches: [] } };
      return undefined;
    });
    renderApp('/app/alerts/a1');
    expect(await screen.findByText('No matches yet')).toBeInTheDocument();
    expect(screen.getByText(/checked again every 5 minutes/)).toBeInTheDocument();
  });

  // A new alert said "No matches yet" with no hint that its first run was still going,
  // and its matches appeared minutes later with no notice.
  it('says a new alert is being checked, then shows and announces the matches its first run found', async () => {
    let runDone = false;
    stubApi((url) => {
      if (url.pathname === '/api/v1/alerts/alert-configs')
        return { body: { alertConfigs: [{ ...alertConfig, lastRunDate: runDone ? '2026-11-03' : null }], total: 1 } };
      // The first page of the matches, and their total.
      if (url.pathname === '/api/v1/alerts/matches') return { body: { options: {}, total: runDone ? 3 : 0, matches: runDone ? [match] : [] } };
      return undefined;
    });
    renderApp('/app/alerts/a1');
    expect(await screen.findByText('Checking the catalog for the first time')).toBeInTheDocument();
    expect(screen.getByText(/first check running/)).toBeInTheDocument();
    expect(screen.queryByText('No matches yet')).toBeNull();
    runDone = true;
    const list = await screen.findByRole('list', { name: 'Alert matches' }, { timeout: 8000 });
    expect(within(list).getByRole('link', { name: 'Soil and climate' })).toBeInTheDocument();
    // Counted from the total, not the page (a page holds at most 20 matches).
    expect(await screen.findByText('3 new matches since you opened this page.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText(/last run/)).toBeInTheDocument(), { timeout: 8000 });
  }, 20_000);
});

// SPEC §9: the free plan's alert count and the shortest search term.
const FREE_ALERTS = specLimitsTable().find((row) => row.item === 'Alerts')!.cells[1];
const MIN_TERM = Number(specSection(9).match(/Minimum search term length (\d+)/)![1]);

const stored = {
  id: 'a1',
  alertName: 'Ana Lopez mentions',
  alertType: 'person',
  enabled: true,
  lastRunDate: null,
  teamId: 't1',
  createdByUserId: 'u1',
  createdAt: '2026-11-01T00:00:00Z',
  updatedAt: '2026-11-01T00:00:00Z',
  emailSettings: { frequency: 'daily' },
  alertSettings: {
    type: 'person',
    value: 'Ana Lopez',
    otherSpellings: ['Ana López'],
    otherEmails: [],
    genresToInclude: [],
    genresToSkip: ['comedy'],
    filters: { excludeAds: true, requireSubject: false },
    subjectNote: null,
    trackMentions: true,
    trackGuestAppearances: true,
  },
};

const change = (name: string, value: string) => fireEvent.change(screen.getByRole('textbox', { name }), { target: { value } });
const pick = (name: string, value: string) => fireEvent.change(screen.getByRole('combobox', { name }), { target: { value } });
const tick = (name: string) => fireEvent.click(screen.getByRole('checkbox', { name }));

describe('creating an alert', () => {
  function stubCreate(answer: { status?: number; body: unknown }) {
    return stubApi((url, init) => {
      if (url.pathname === '/api/v1/alerts/alert-configs') return { body: { alertConfigs: [], total: 0 } };
      if (url.pathname === '/api/v1/alerts/alert-config' && init?.method === 'POST') return answer;
      if (url.pathname === '/api/v1/alerts/matches') return { body: { options: {}, total: 0, matches: [] } };
      return undefined;
    });
  }
  const posted = (calls: ReturnType<typeof stubApi>) => calls.filter((call) => call.url.pathname === '/api/v1/alerts/alert-config' && call.init?.method === 'POST');

  it('posts the name, the search terms, the filters and the e-mail settings, then opens the alert', async () => {
    const calls = stubCreate({ body: { createdAlertConfig: { ...stored, id: 'a9', alertName: 'Pollinate', alertType: 'company' } } });
    const { router } = renderApp('/app/alerts');
    fireEvent.click(await screen.findByRole('button', { name: 'New alert' }));
    change('Alert name', 'Pollinate');
    pick('Alert type', 'company');
    change('Name or keyword to find', 'Pollinate');
    change('Other spellings (one a line)', 'Pollinate Inc\n\n Polinate ');
    tick('Suggest more spellings');
    tick('Leave out advertisements');
    tick('Only mentions about the subject itself');
    change('Who or what is meant (tells mentions of the subject from others)', 'the seed company');
    change('Only these genres (comma separated)', 'business, science');
    pick('E-mail frequency', 'weekly');
    change('Also send to (one address a line)', 'sam@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Create alert' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/app/alerts/a9'));
    expect(posted(calls)).toHaveLength(1);
    expect(JSON.parse(String(posted(calls)[0].init!.body))).toEqual({
      alertName: 'Pollinate',
      alertType: 'company',
      value: 'Pollinate',
      enabled: true,
      emailSettings: { frequency: 'weekly' },
      additionalAlertSettings: {
        otherSpellings: ['Pollinate Inc', 'Polinate'],
        otherEmails: ['sam@example.com'],
        genresToInclude: ['business', 'science'],
        genresToSkip: [],
        filters: { excludeAds: false, requireSubject: true },
        subjectNote: 'the seed company',
      },
      generateAlternativeSpellings: true,
    });
  });

  it("shows the server's message for a search term that is too short", async () => {
    const message = `Alert value must be at least ${MIN_TERM} characters`;
    const calls = stubCreate({ status: 400, body: { status: 'BAD_REQUEST', data: { message } } });
    renderApp('/app/alerts');
    fireEvent.click(await screen.findByRole('button', { name: 'New alert' }));
    change('Alert name', 'Short');
    change('Name or keyword to find', 'a'.repeat(MIN_TERM - 1));
    fireEvent.click(screen.getByRole('button', { name: 'Create alert' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(JSON.parse(String(posted(calls)[0].init!.body)).value).toBe('a'.repeat(MIN_TERM - 1));
    // The form stays filled in for another try.
    expect(screen.getByRole('textbox', { name: 'Alert name' })).toHaveValue('Short');
  });

  it("shows the plan's alert limit as the server words it", async () => {
    const message = `Alert limit reached: the free plan allows ${FREE_ALERTS} alerts. Delete an alert or upgrade your plan to create more.`;
    stubCreate({ status: 403, body: { status: 'FORBIDDEN', data: { message } } });
    const { router } = renderApp('/app/alerts');
    fireEvent.click(await screen.findByRole('button', { name: 'New alert' }));
    change('Alert name', 'Second alert');
    change('Name or keyword to find', 'Sam Reed');
    fireEvent.click(screen.getByRole('button', { name: 'Create alert' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(router.state.location.pathname).toBe('/app/alerts');
  });
});

describe('editing an alert', () => {
  function stubEdit(answer: { status?: number; body: unknown }) {
    return stubApi((url, init) => {
      if (url.pathname === '/api/v1/alerts/alert-configs') return { body: { alertConfigs: [alertConfig], total: 1 } };
      if (url.pathname === '/api/v1/alerts/matches') return { body: { options: {}, total: 0, matches: [] } };
      if (url.pathname === '/api/v1/alerts/alert-config/a1' && init?.method === 'PATCH') return answer;
      if (url.pathname === '/api/v1/alerts/alert-config/a1') return { body: { alertConfig: stored } };
      return undefined;
    });
  }
  const patched = (calls: ReturnType<typeof stubApi>) => calls.filter((call) => call.init?.method === 'PATCH');

  it('fills the form from the stored alert and sends the changes as updates, keeping the other settings', async () => {
    const calls = stubEdit({ body: { updatedAlertConfig: { ...stored, alertName: 'Ana Lopez, weekly' } } });
    renderApp('/app/alerts/a1');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit alert' }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Alert name' })).toHaveValue('Ana Lopez mentions'));
    expect(screen.getByRole('textbox', { name: 'Name or keyword to find' })).toHaveValue('Ana Lopez');
    expect(screen.getByRole('textbox', { name: 'Other spellings (one a line)' })).toHaveValue('Ana López');
    expect(screen.getByRole('textbox', { name: 'Skip these genres (comma separated)' })).toHaveValue('comedy');
    expect(screen.getByRole('checkbox', { name: 'Leave out advertisements' })).toBeChecked();
    expect(screen.getByRole('combobox', { name: 'Alert type' })).toBeDisabled();

    change('Alert name', 'Ana Lopez, weekly');
    change('Other spellings (one a line)', 'Ana López\nAnna Lopez');
    pick('E-mail frequency', 'weekly');
    tick('Alert is on');
    fireEvent.click(screen.getByRole('button', { name: 'Save alert' }));

    expect(await screen.findByText('Alert saved.')).toBeInTheDocument();
    expect(patched(calls)).toHaveLength(1);
    expect(patched(calls)[0].url.pathname).toBe('/api/v1/alerts/alert-config/a1');
    expect(JSON.parse(String(patched(calls)[0].init!.body))).toEqual({
      updates: {
        alertName: 'Ana Lopez, weekly',
        enabled: false,
        emailSettings: { frequency: 'weekly' },
        alertSettings: {
          type: 'person',
          value: 'Ana Lopez',
          otherSpellings: ['Ana López', 'Anna Lopez'],
          otherEmails: [],
          genresToInclude: [],
          genresToSkip: ['comedy'],
          filters: { excludeAds: true, requireSubject: false },
          subjectNote: null,
          trackMentions: true,
          trackGuestAppearances: true,
        },
      },
    });
    expect(screen.queryByRole('form', { name: 'Edit alert' })).toBeNull();
    // The list is read again after the change.
    await waitFor(() => expect(calls.filter((call) => call.url.pathname === '/api/v1/alerts/alert-configs').length).toBeGreaterThanOrEqual(2));
  });

  it("shows the server's message when a change is refused", async () => {
    const message = 'Alert name is required';
    stubEdit({ status: 400, body: { status: 'BAD_REQUEST', data: { message } } });
    renderApp('/app/alerts/a1');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit alert' }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Alert name' })).toHaveValue('Ana Lopez mentions'));
    change('Alert name', '');
    fireEvent.click(screen.getByRole('button', { name: 'Save alert' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('form', { name: 'Edit alert' })).toBeInTheDocument();
  });
});
