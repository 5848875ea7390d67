import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { setApiKey } from '@/lib/auth-storage';
import { renderApp, stubApi, stubClipboard } from '@/test/render';
import { specSection } from '@/test/spec';

type Body = Record<string, unknown>;
type Answer = { status?: number; body: unknown };

beforeEach(() => setApiKey('pl_key'));
afterEach(() => vi.unstubAllGlobals());

// SPEC §5: "Custom prompt name 3-100 characters."
const [NAME_MIN, NAME_MAX] = specSection(5).match(/Custom prompt name (\d+)-(\d+) characters/)!.slice(1).map(Number);
const NAME_MESSAGE = `Custom prompt name must be between ${NAME_MIN} and ${NAME_MAX} characters`;

const recap = { id: 'cp1', name: 'Weekly recap', description: 'For the Monday email', contextType: 'episode', prompt: 'Summarise the episode in five bullets.', createdAt: '2026-11-01T00:00:00Z', updatedAt: '2026-11-02T00:00:00Z' };

/** The custom prompt routes over a list the writes change, as the server's do. */
function stubPrompts(options: { create?: Answer } = {}) {
  let prompts: Body[] = [recap];
  const writes: { method: string; path: string; body: Body | null }[] = [];
  const calls = stubApi((url, init) => {
    const method = init?.method ?? 'GET';
    if (!url.pathname.startsWith('/api/v1/teams/custom-prompts')) return undefined;
    const body = init?.body ? (JSON.parse(String(init.body)) as Body) : null;
    if (method !== 'GET') writes.push({ method, path: url.pathname, body });
    const id = url.pathname.split('/')[5];
    if (method === 'GET') return { body: { customPrompts: prompts } };
    if (method === 'POST') {
      if (options.create) return options.create;
      const created = { id: `cp${prompts.length + 1}`, ...body };
      prompts = [...prompts, created];
      return { body: { customPrompt: created } };
    }
    if (method === 'PATCH') {
      prompts = prompts.map((item) => (item.id === id ? { ...item, ...body } : item));
      return { body: { customPrompt: prompts.find((item) => item.id === id) } };
    }
    if (method === 'DELETE') {
      prompts = prompts.filter((item) => item.id !== id);
      return { body: { deleted: true } };
    }
    return undefined;
  });
  return { calls, writes };
}

describe('custom prompts', () => {
  it('lists the team prompts and creates one, checking the name with the spec message first', async () => {
    const { writes } = stubPrompts();
    renderApp('/app/team-settings/custom-prompts');
    const list = await screen.findByRole('list', { name: 'Custom prompts' });
    expect(within(list).getByRole('heading', { name: 'Weekly recap' })).toBeInTheDocument();
    expect(within(list).getByText('An episode')).toBeInTheDocument();
    expect(within(list).getByText('Summarise the episode in five bullets.')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'New custom prompt' }));
    const form = screen.getByRole('form', { name: 'New custom prompt' });
    await userEvent.type(within(form).getByLabelText('Name'), ' ab ');
    await userEvent.type(within(form).getByLabelText('Prompt'), 'Which guests fit?');
    await userEvent.click(within(form).getByRole('button', { name: 'Create prompt' }));
    expect(within(form).getByText(NAME_MESSAGE)).toBeInTheDocument();
    expect(within(form).getByLabelText('Name')).toHaveFocus();
    expect(writes).toHaveLength(0);

    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'x'.repeat(NAME_MAX + 1) } });
    await userEvent.click(within(form).getByRole('button', { name: 'Create prompt' }));
    expect(within(form).getByText(NAME_MESSAGE)).toBeInTheDocument();
    expect(writes).toHaveLength(0);

    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: '  Guest fit  ' } });
    await userEvent.selectOptions(within(form).getByLabelText('Runs on'), 'transcript');
    await userEvent.click(within(form).getByRole('button', { name: 'Create prompt' }));
    await waitFor(() => expect(writes).toHaveLength(1));
    expect(writes[0]).toEqual({
      method: 'POST',
      path: '/api/v1/teams/custom-prompts',
      body: { name: 'Guest fit', description: null, contextType: 'transcript', prompt: 'Which guests fit?' },
    });
    expect(await within(list).findByRole('heading', { name: 'Guest fit' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'New custom prompt' })).toBeNull();
  });

  it("shows the server's refusal", async () => {
    stubPrompts({ create: { status: 400, body: { status: 'BAD_REQUEST', data: { message: 'contextType must be one of podcast, episode, transcript' } } } });
    renderApp('/app/team-settings/custom-prompts');
    await screen.findByRole('list', { name: 'Custom prompts' });
    await userEvent.click(screen.getByRole('button', { name: 'New custom prompt' }));
    const form = screen.getByRole('form', { name: 'New custom prompt' });
    await userEvent.type(within(form).getByLabelText('Name'), 'Guest fit');
    await userEvent.type(within(form).getByLabelText('Prompt'), 'Which guests fit?');
    await userEvent.click(within(form).getByRole('button', { name: 'Create prompt' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('contextType must be one of podcast, episode, transcript');
  });

  it('edits a prompt and deletes one only after a confirmation', async () => {
    const { writes } = stubPrompts();
    renderApp('/app/team-settings/custom-prompts');
    const list = await screen.findByRole('list', { name: 'Custom prompts' });
    await userEvent.click(within(list).getByRole('button', { name: 'Edit Weekly recap' }));
    const form = screen.getByRole('form', { name: 'Edit custom prompt' });
    expect(within(form).getByLabelText('Description (optional)')).toHaveValue('For the Monday email');
    expect(within(form).getByLabelText('Runs on')).toHaveValue('episode');
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Monday recap' } });
    fireEvent.change(within(form).getByLabelText('Description (optional)'), { target: { value: '   ' } });
    await userEvent.click(within(form).getByRole('button', { name: 'Save prompt' }));
    await waitFor(() => expect(writes).toHaveLength(1));
    expect(writes[0]).toEqual({
      method: 'PATCH',
      path: '/api/v1/teams/custom-prompts/cp1',
      body: { name: 'Monday recap', description: null, contextType: 'episode', prompt: 'Summarise the episode in five bullets.' },
    });
    expect(await within(list).findByRole('heading', { name: 'Monday recap' })).toBeInTheDocument();

    await userEvent.click(within(list).getByRole('button', { name: 'Delete Monday recap' }));
    const confirm = screen.getByRole('group', { name: 'Confirm: delete Monday recap' });
    expect(within(confirm).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: 'Confirm: delete Monday recap' })).toBeNull();
    expect(writes).toHaveLength(1);
    await userEvent.click(within(list).getByRole('button', { name: 'Delete Monday recap' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete prompt' }));
    await waitFor(() => expect(writes).toHaveLength(2));
    expect(writes[1]).toEqual({ method: 'DELETE', path: '/api/v1/teams/custom-prompts/cp1', body: null });
    expect(await screen.findByText('No custom prompts yet')).toBeInTheDocument();
  });
});

const SECRET = `whsec_${'3b'.repeat(24)}`;
const deliveries = [
  { deliveryId: 'd2', event: 'alert_match', alertConfigId: 'a1', status: 'failed', attempts: 5, createdAt: '2026-11-05T00:00:00Z', nextAttemptAt: '2026-11-05T01:00:00Z', sentAt: null, lastError: 'HTTP 500 from the endpoint' },
  { deliveryId: 'd1', event: 'alert_match', alertConfigId: 'a1', status: 'sent', attempts: 1, createdAt: '2026-11-04T00:00:00Z', nextAttemptAt: '2026-11-04T00:00:00Z', sentAt: '2026-11-04T00:00:01Z', lastError: null },
];
const hook = { webhookId: 'w1', url: 'https://hooks.example.com/podlens', events: ['alert_match'], createdAt: '2026-11-04T00:00:00Z' };

function stubWebhooks(options: { create?: Answer } = {}) {
  let webhooks: Body[] = [hook];
  const writes: { method: string; path: string; body: Body | null }[] = [];
  stubApi((url, init) => {
    const method = init?.method ?? 'GET';
    if (!url.pathname.startsWith('/api/v1/teams/webhooks')) return undefined;
    const body = init?.body ? (JSON.parse(String(init.body)) as Body) : null;
    if (method !== 'GET') writes.push({ method, path: url.pathname, body });
    if (method === 'GET' && url.pathname.endsWith('/deliveries')) return { body: { deliveries } };
    if (method === 'GET') return { body: { webhooks } };
    if (method === 'POST') {
      if (options.create) return options.create;
      const created = { webhookId: 'w2', url: body!.url, events: body!.events, createdAt: '2026-11-05T00:00:00Z' };
      webhooks = [created, ...webhooks];
      return { body: { webhook: created, secret: SECRET } };
    }
    if (method === 'DELETE') {
      webhooks = webhooks.filter((item) => item.webhookId !== url.pathname.split('/').pop());
      return { body: { deleted: true } };
    }
    return undefined;
  });
  return writes;
}

describe('integrations', () => {
  it('adds a webhook and shows its secret once', async () => {
    const writes = stubWebhooks();
    const writeText = stubClipboard();
    renderApp('/app/team-settings/integrations');
    const table = await screen.findByRole('table', { name: 'Webhooks' });
    expect(within(table).getByRole('rowheader', { name: hook.url })).toBeInTheDocument();
    expect(within(table).getByText('Alert matches')).toBeInTheDocument();

    const form = screen.getByRole('form', { name: 'Add a webhook' });
    await userEvent.type(within(form).getByLabelText('Endpoint URL'), 'ftp://example.com/x');
    await userEvent.click(within(form).getByRole('button', { name: 'Add webhook' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('The URL must start with http:// or https://');
    expect(writes).toHaveLength(0);

    fireEvent.change(within(form).getByLabelText('Endpoint URL'), { target: { value: ' https://ops.example.org/in ' } });
    await userEvent.click(within(form).getByRole('button', { name: 'Add webhook' }));
    const secret = await screen.findByRole('textbox', { name: 'Signing secret' });
    expect(secret).toHaveValue(SECRET);
    expect(writes[0]).toEqual({ method: 'POST', path: '/api/v1/teams/webhooks', body: { url: 'https://ops.example.org/in', events: ['alert_match'] } });
    expect(screen.getByRole('heading', { name: 'Signing secret for https://ops.example.org/in' })).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Copy secret' }));
    expect(writeText).toHaveBeenCalledWith(SECRET);
    expect(await within(table).findByRole('rowheader', { name: 'https://ops.example.org/in' })).toBeInTheDocument();
    expect(table).not.toHaveTextContent(SECRET);

    await userEvent.click(screen.getByRole('button', { name: 'I have saved the secret' }));
    expect(screen.queryByRole('textbox', { name: 'Signing secret' })).toBeNull();
    expect(document.body).not.toHaveTextContent(SECRET);
    expect(within(form).getByLabelText('Endpoint URL')).toHaveFocus();
  });

  it("shows the server's refusal of a URL", async () => {
    stubWebhooks({ create: { status: 400, body: { status: 'BAD_REQUEST', data: { message: 'Webhook URL must not point at a private address' } } } });
    renderApp('/app/team-settings/integrations');
    await screen.findByRole('table', { name: 'Webhooks' });
    const form = screen.getByRole('form', { name: 'Add a webhook' });
    await userEvent.type(within(form).getByLabelText('Endpoint URL'), 'http://10.0.0.1/hook');
    await userEvent.click(within(form).getByRole('button', { name: 'Add webhook' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Webhook URL must not point at a private address');
    expect(screen.queryByRole('textbox', { name: 'Signing secret' })).toBeNull();
  });

  it('deletes a webhook after a confirmation', async () => {
    const writes = stubWebhooks();
    renderApp('/app/team-settings/integrations');
    const table = await screen.findByRole('table', { name: 'Webhooks' });
    await userEvent.click(within(table).getByRole('button', { name: `Delete ${hook.url}` }));
    expect(writes).toHaveLength(0);
    await userEvent.click(within(table).getByRole('button', { name: 'Delete webhook' }));
    await waitFor(() => expect(writes).toEqual([{ method: 'DELETE', path: '/api/v1/teams/webhooks/w1', body: null }]));
    expect(await screen.findByText('No webhooks yet')).toBeInTheDocument();
  });

  it("lists a webhook's deliveries with their status and last error", async () => {
    stubWebhooks();
    renderApp('/app/team-settings/integrations');
    const table = await screen.findByRole('table', { name: 'Webhooks' });
    await userEvent.click(within(table).getByRole('button', { name: `Deliveries to ${hook.url}` }));
    const list = await screen.findByRole('list', { name: `Deliveries to ${hook.url}` });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('failed after 5 attempts');
    expect(items[0]).toHaveTextContent('HTTP 500 from the endpoint');
    expect(items[1]).toHaveTextContent('sent after 1 attempt');
    expect(items[1]).toHaveTextContent('d1');
  });
});
