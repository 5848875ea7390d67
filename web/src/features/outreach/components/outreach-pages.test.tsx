import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { setApiKey } from '@/lib/auth-storage';
import { renderApp, stubApi, stubClipboard } from '@/test/render';
import { specLimitsTable } from '@/test/spec';

// The five built-in templates, in the server's order.
const builtIn = (id: string, name: string, template: string) =>
  ({ id, slug: id, name, context: 'guest-booking', description: null, template, ownerUserId: null, updatedAt: null, builtIn: true });
const templates = [
  builtIn('default', 'Default', 'Hi [Host First Name], I loved [Recent Episode]…'),
  builtIn('concise', 'Concise', 'Hi [Host First Name], quick note…'),
  builtIn('topicsIdeas', 'Topics & ideas', 'Hi [Host First Name], a few topic ideas: [Topics]'),
  builtIn('discussion', 'Discussion', 'Hi [Host First Name], let us discuss…'),
  builtIn('ultraConcise', 'Ultra concise', '[Guest Name] for [Podcast Name]?'),
];

const generated = {
  id: 'o9',
  createdAt: '2026-11-05T10:00:00Z',
  teamId: 't1',
  userId: 'u1',
  podcast: { podcastId: 'p1', title: 'Climate Hour', slug: 'climate-hour', imageUrl: null },
  project: null,
  subject: 'Guest idea for Climate Hour: Sam Reed',
  perspective: 'third',
  emailLength: 'long',
  callToActionStyle: 'heavy',
  personalizationLevel: 'light',
  generationMode: 'basic',
  outreachTemplateId: 'topicsIdeas',
  body: 'Hi Ana,\n\nI am writing on behalf of Sam Reed of Pollinate.\n- urban moths\n- light pollution\n\nada',
};
const { body: _body, ...generatedEntry } = generated;
const earlier = { ...generatedEntry, id: 'o1', subject: 'An earlier pitch to Climate Hour', createdAt: '2026-10-01T10:00:00Z' };

type Answer = { status?: number; body: unknown };

/** The outreach routes; `generateAnswer` is what POST /outreach/generate returns. */
function stubOutreach(generateAnswer: Answer, extra: (url: URL) => Answer | undefined = () => undefined) {
  let generatedOnce = false;
  const calls = stubApi((url, init) => {
    if (url.pathname === '/api/v1/outreach/templates') return { body: { templates } };
    if (url.pathname === '/api/v1/outreach/generate' && init?.method === 'POST') {
      if ((generateAnswer.status ?? 200) < 400) generatedOnce = true;
      return generateAnswer;
    }
    if (url.pathname === '/api/v1/outreach/history') {
      const items = generatedOnce ? [generatedEntry, earlier] : [earlier];
      return { body: { total: items.length, outreachHistory: items } };
    }
    return extra(url);
  });
  const generateCalls = () => calls.filter((call) => call.url.pathname === '/api/v1/outreach/generate');
  const bodyOf = (index: number) => JSON.parse(String(generateCalls()[index].init!.body)) as unknown;
  return { calls, generateCalls, bodyOf };
}

/** GET /podcasts/p1 and its contacts: the show the first test writes to. */
const climateHour = (url: URL): Answer | undefined => {
  if (url.pathname === '/api/v1/podcasts/p1') return { body: { podcast: { id: 'p1', slug: 'climate-hour', title: 'Climate Hour', author: 'Ana Lopez', imageUrl: null } } };
  if (url.pathname === '/api/v1/podcasts/p1/contacts')
    return { body: { podcastContacts: { podcastId: 'p1', emails: [{ email: 'ana@climatehour.example' }] } } };
  return undefined;
};

const select = (name: string, value: string) => fireEvent.change(screen.getByRole('combobox', { name }), { target: { value } });
const type = (name: string, value: string) => fireEvent.change(screen.getByRole('textbox', { name }), { target: { value } });

let writeText: ReturnType<typeof vi.fn>;
beforeEach(() => {
  setApiKey('pl_key');
  writeText = stubClipboard();
});
afterEach(() => vi.unstubAllGlobals());

describe('writing an outreach email', () => {
  it("says who signs when the field is left empty: the name chosen in Settings, else a place for it", async () => {
    const session = (displayName: string | null) => (url: URL): Answer | undefined =>
      url.pathname === '/api/v1/auth/session' ? { body: { userId: 'u1', email: 'jdoe42@example.com', teamId: 't1', plan: 'BUSINESS', displayName } } : climateHour(url);
    stubOutreach({ body: { outreach: generated } }, session('Ada Quinn'));
    const view = renderApp('/app/outreach/new?podcast-id=p1');
    const field = screen.getByRole('textbox', { name: "Signed by (emails written on the guest's behalf)" });
    await waitFor(() => expect(field).toHaveAttribute('placeholder', 'Ada Quinn'));
    expect(field).toHaveValue('');
    expect(field).toHaveAccessibleDescription('Left empty, the email is signed Ada Quinn: change your name in your settings.');
    view.unmount();
    stubOutreach({ body: { outreach: generated } }, session(null));
    renderApp('/app/outreach/new?podcast-id=p1');
    const bare = screen.getByRole('textbox', { name: "Signed by (emails written on the guest's behalf)" });
    await waitFor(() => expect(bare).toHaveAccessibleDescription('Left empty, the email leaves "[Your name]" to fill in: set your name in your settings.'));
    expect(bare).toHaveAttribute('placeholder', '[Your name]');
  });

  it('sends the podcast, the chosen template and options and the guest, and shows the email', async () => {
    const api = stubOutreach({ body: { outreach: generated } }, climateHour);
    renderApp('/app/outreach/new?podcast-id=p1');
    // The template choice comes from GET /outreach/templates.
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Template' })).toBeEnabled());
    const options = within(screen.getByRole('combobox', { name: 'Template' })).getAllByRole('option');
    expect(options.map((option) => option.getAttribute('value'))).toEqual(templates.map((template) => template.id));
    // The podcast is named by its title, never by its id.
    expect(await screen.findByText('Climate Hour')).toBeInTheDocument();
    expect(screen.queryByDisplayValue('p1')).toBeNull();
    type("Signed by (emails written on the guest's behalf)", ' Ada Quinn ');

    select('Template', 'topicsIdeas');
    select('Perspective', 'third');
    select('Length', 'long');
    select('Call to action', 'heavy');
    select('Personalization', 'light');
    type('Guest name', ' Sam Reed ');
    type('Company', 'Pollinate');
    type('Topics to discuss (one a line)', 'urban moths\n\n light pollution ');
    fireEvent.click(screen.getByRole('button', { name: 'Generate email' }));

    const email = await screen.findByRole('article', { name: 'Outreach email' });
    expect(api.generateCalls()).toHaveLength(1);
    expect(api.generateCalls()[0].init!.method).toBe('POST');
    expect(api.bodyOf(0)).toEqual({
      podcastId: 'p1',
      outreachTemplateId: 'topicsIdeas',
      perspective: 'third',
      emailLength: 'long',
      callToActionStyle: 'heavy',
      personalizationLevel: 'light',
      guest: { name: 'Sam Reed', companyName: 'Pollinate', topicsToDiscuss: ['urban moths', 'light pollution'] },
      senderName: 'Ada Quinn',
    });
    expect(within(email).getByRole('heading', { name: generated.subject })).toBeInTheDocument();
    // Addressed to the show's contact, and ready to open in a mail program; the contacts
    // are read only when asked for (a lookup counts against some plans).
    expect(api.calls.some((call) => call.url.pathname === '/api/v1/podcasts/p1/contacts')).toBe(false);
    fireEvent.click(within(email).getByRole('button', { name: "Show the show's contact address" }));
    expect(await within(email).findByRole('link', { name: 'ana@climatehour.example' })).toHaveAttribute('href', 'mailto:ana@climatehour.example');
    const mailto = new URL(within(email).getByRole('link', { name: 'Open in your email app' }).getAttribute('href')!);
    expect(mailto.protocol).toBe('mailto:');
    expect(mailto.pathname).toBe('ana@climatehour.example');
    expect(mailto.searchParams.get('subject')).toBe(generated.subject);
    expect(mailto.searchParams.get('body')).toBe(generated.body);
    expect(within(email).getByLabelText('Email body').textContent).toBe(generated.body);
    expect(within(email).getByRole('link', { name: 'Open in history' })).toHaveAttribute('href', '/app/outreach/o9?podcast-id=p1');

    // The new email joins this podcast's history below.
    const history = await screen.findByRole('list', { name: 'Outreach history' });
    await waitFor(() => expect(within(history).getByRole('link', { name: generated.subject })).toBeInTheDocument());
    expect(within(history).getAllByRole('listitem')).toHaveLength(2);
    const historyCalls = api.calls.filter((call) => call.url.pathname === '/api/v1/outreach/history');
    expect(historyCalls.length).toBeGreaterThanOrEqual(2);
    expect(historyCalls.every((call) => call.url.searchParams.get('podcastId') === 'p1')).toBe(true);

    fireEvent.click(within(email).getByRole('button', { name: 'Copy subject' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(generated.subject));
    fireEvent.click(within(email).getByRole('button', { name: 'Copy body' }));
    await waitFor(() => expect(writeText).toHaveBeenLastCalledWith(generated.body));
    expect(within(email).getAllByText('Copied').length).toBeGreaterThan(0);
  });

  it('suggests podcasts by title as one types and sends the chosen one', async () => {
    const api = stubOutreach({ body: { outreach: generated } }, (url) =>
      url.pathname === '/api/v1/autocomplete/podcasts' && url.searchParams.get('query') === 'clim'
        ? { body: { podcasts: [{ id: 'p1', slug: 'climate-hour', title: 'Climate Hour', author: 'Ana Lopez' }], words: [] } }
        : climateHour(url),
    );
    renderApp('/app/outreach');
    type('Podcast', 'clim');
    const suggestions = await screen.findByRole('list', { name: 'Matching podcasts' });
    fireEvent.click(within(suggestions).getByRole('button', { name: /Climate Hour/ }));
    expect(await screen.findByText('Climate Hour')).toBeInTheDocument();
    // The focus moves to what replaced the suggestion, not to the page.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Choose another podcast' })).toHaveFocus());
    fireEvent.click(screen.getByRole('button', { name: 'Generate email' }));
    await screen.findByRole('article', { name: 'Outreach email' });
    expect((api.bodyOf(0) as { podcastId: string }).podcastId).toBe('p1');
  });

  it('sends the middle settings and no guest when nothing is changed', async () => {
    const api = stubOutreach({ body: { outreach: generated } });
    renderApp('/app/outreach');
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Template' })).toBeEnabled());
    type('Podcast', 'climate-hour');
    fireEvent.click(screen.getByRole('button', { name: 'Generate email' }));
    await screen.findByRole('article', { name: 'Outreach email' });
    expect(api.bodyOf(0)).toEqual({
      podcastId: 'climate-hour',
      outreachTemplateId: 'default',
      perspective: 'first',
      emailLength: 'medium',
      callToActionStyle: 'medium',
      personalizationLevel: 'medium',
    });
  });

  it('asks for a podcast before sending anything', async () => {
    const api = stubOutreach({ body: { outreach: generated } });
    renderApp('/app/outreach');
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Template' })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: 'Generate email' }));
    expect(await screen.findByText('Choose the podcast to write to.')).toBeInTheDocument();
    expect(api.generateCalls()).toHaveLength(0);
  });

  it('fills the guest from the guest profile of the query and sends its id', async () => {
    const profile = {
      guestProfileId: 'g1',
      name: 'Sam Reed',
      firstName: 'Sam',
      lastName: 'Reed',
      companyName: 'Pollinate',
      guestBio: { shortBio: 'Sam studies moths.', longBio: '', goals: [], areasOfExpertise: ['entomology', 'ecology'], topicsToDiscuss: ['urban moths'], thingsToAvoid: [], additionalContext: null },
    };
    const api = stubOutreach({ body: { outreach: generated } }, (url) =>
      url.pathname === '/api/v1/guest-profiles/g1' ? { body: profile } : undefined,
    );
    renderApp('/app/outreach/new?podcast-id=p1&guest-profile-id=g1');
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Guest name' })).toHaveValue('Sam Reed'));
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Template' })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: 'Generate email' }));
    await screen.findByRole('article', { name: 'Outreach email' });
    expect(api.bodyOf(0)).toEqual({
      podcastId: 'p1',
      outreachTemplateId: 'default',
      perspective: 'first',
      emailLength: 'medium',
      callToActionStyle: 'medium',
      personalizationLevel: 'medium',
      guestProfileId: 'g1',
      guest: { name: 'Sam Reed', companyName: 'Pollinate', shortBio: 'Sam studies moths.', expertise: 'entomology, ecology', topicsToDiscuss: ['urban moths'] },
    });
    const historyCall = api.calls.find((call) => call.url.pathname === '/api/v1/outreach/history')!;
    expect(historyCall.url.searchParams.get('guestProfileId')).toBe('g1');
  });

  it("shows the plan's limit as the server words it (429) and writes nothing", async () => {
    // SPEC §9: the free plan has 3 AI assists a day; the server names the limit and when it resets.
    const freeAssists = specLimitsTable().find((row) => row.item === 'AI assist')!.cells[1];
    expect(freeAssists).toBe('3/day');
    const message = 'Usage limit reached: the free plan allows 3 ai assists per day. It resets tomorrow (00:00 UTC).';
    stubOutreach({ status: 429, body: { status: 'TOO_MANY_REQUESTS', data: { message } } });
    renderApp('/app/outreach/new?podcast-id=p1');
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Template' })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: 'Generate email' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(message);
    expect(screen.queryByRole('article', { name: 'Outreach email' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Generate email' })).toBeEnabled();
  });

  it('shows a refusal of the plan (403) as the server words it', async () => {
    const message = 'AI assists are not included in the public plan';
    stubOutreach({ status: 403, body: { status: 'FORBIDDEN', data: { message } } });
    renderApp('/app/outreach/new?podcast-id=p1');
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Template' })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: 'Generate email' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
  });

  it('says the email is being written while the server works', async () => {
    let release: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (release = resolve));
    stubOutreach({ body: { outreach: generated } });
    const stubbed = globalThis.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).includes('/outreach/generate')) await answered;
      return stubbed(input, init);
    });
    renderApp('/app/outreach/new?podcast-id=p1');
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Template' })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: 'Generate email' }));
    expect(await screen.findByText('Writing the email…')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Writing…' })).toBeDisabled();
    release();
    await screen.findByRole('article', { name: 'Outreach email' });
    expect(screen.queryByText('Writing the email…')).toBeNull();
  });
});

describe('stored outreach emails', () => {
  it('lists the history and opens one email with its body', async () => {
    const api = stubOutreach({ body: { outreach: generated } }, (url) =>
      url.pathname === '/api/v1/outreach/o1/details' ? { body: { outreach: { ...earlier, body: 'Hi Ana,\n\nEarlier words.' } } } : undefined,
    );
    renderApp('/app/outreach');
    const history = await screen.findByRole('list', { name: 'Outreach history' });
    const link = within(history).getByRole('link', { name: earlier.subject });
    expect(link).toHaveAttribute('href', '/app/outreach/o1?podcast-id=p1');
    fireEvent.click(link);
    const email = await screen.findByRole('article', { name: 'Outreach email' });
    expect(within(email).getByLabelText('Email body').textContent).toBe('Hi Ana,\n\nEarlier words.');
    expect(screen.getByRole('link', { name: 'Write another to this podcast' })).toHaveAttribute('href', '/app/outreach/new?podcast-id=p1');
    expect(api.calls.some((call) => call.url.pathname === '/api/v1/outreach/o1/details')).toBe(true);
  });

  it("shows the server's message when an email is not found", async () => {
    stubOutreach({ body: {} }, (url) =>
      url.pathname === '/api/v1/outreach/nope/details' ? { status: 404, body: { status: 'NOT_FOUND', data: { message: 'Outreach not found: nope' } } } : undefined,
    );
    renderApp('/app/outreach/nope');
    expect(await screen.findByRole('alert')).toHaveTextContent('Outreach not found: nope');
  });
});
