import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { setApiKey } from '@/lib/auth-storage';
import { formatDate } from '@/lib/format';
import { renderApp, stubApi, stubClipboard } from '@/test/render';

import type { ApiKeySummary } from '../api/api-keys';

const ROUTE = '/api/v1/teams/api-keys';
const REVOKED_AT = '2026-11-06T12:00:00Z';
const NEW_KEY = `pl_${'7f'.repeat(32)}`;

const activeKey: ApiKeySummary = { keyId: 'k2', prefix: 'pl_9c1e4', createdAt: '2026-11-03T12:00:00Z', createdBy: 'ana@example.com', revokedAt: null };
const revokedKey: ApiKeySummary = { keyId: 'k1', prefix: 'pl_04ab7', createdAt: '2026-10-01T12:00:00Z', createdBy: 'ben@example.com', revokedAt: '2026-10-20T12:00:00Z' };
const createdKey = { apiKey: NEW_KEY, keyId: 'k3', prefix: 'pl_7f7f7', createdAt: '2026-11-05T12:00:00Z' };

type Answer = { status?: number; body: unknown };

/** The API key routes over a list the writes change, as the server's do. */
function stubKeys(options: { create?: Answer; revoke?: Answer; list?: Answer } = {}) {
  let keys = [activeKey, revokedKey];
  const calls = stubApi((url, init) => {
    const method = init?.method ?? 'GET';
    if (url.pathname === ROUTE && method === 'GET') return options.list ?? { body: { apiKeys: keys } };
    if (url.pathname === ROUTE && method === 'POST') {
      const answer = options.create ?? { body: createdKey };
      const { apiKey: _secret, ...listed } = createdKey;
      if ((answer.status ?? 200) < 400) keys = [{ ...listed, createdBy: 'ana@example.com', revokedAt: null }, ...keys];
      return answer;
    }
    if (url.pathname.startsWith(`${ROUTE}/`) && method === 'DELETE') {
      const keyId = decodeURIComponent(url.pathname.slice(ROUTE.length + 1));
      const answer = options.revoke ?? { body: { keyId, revokedAt: REVOKED_AT } };
      if ((answer.status ?? 200) < 400) keys = keys.map((key) => (key.keyId === keyId ? { ...key, revokedAt: REVOKED_AT } : key));
      return answer;
    }
    return undefined;
  });
  const keyCalls = () => calls.filter((call) => call.url.pathname.startsWith(ROUTE));
  const writes = () => keyCalls().filter((call) => call.init?.method && call.init.method !== 'GET');
  const lists = () => keyCalls().filter((call) => (call.init?.method ?? 'GET') === 'GET');
  return { calls, writes, lists };
}

const rowOf = (prefix: string) => screen.getByRole('row', { name: new RegExp(prefix) });

let writeText: ReturnType<typeof vi.fn>;
beforeEach(() => {
  setApiKey('pl_key');
  writeText = stubClipboard();
});
afterEach(() => vi.unstubAllGlobals());

describe('the developers section', () => {
  it('lists the team’s keys by prefix, with who created them and whether they still work', async () => {
    const api = stubKeys();
    renderApp('/app/team-settings/developers');
    const table = await screen.findByRole('table', { name: 'API keys' });
    expect(api.lists()[0].url.pathname).toBe(ROUTE);
    const [, active, revoked] = within(table).getAllByRole('row');
    expect(within(active).getByRole('rowheader')).toHaveTextContent('pl_9c1e4…');
    expect(within(active).getAllByRole('cell').map((cell) => cell.textContent)).toEqual([formatDate(activeKey.createdAt), 'ana@example.com', 'Active', 'Revoke']);
    expect(within(revoked).getAllByRole('cell').map((cell) => cell.textContent)).toEqual([formatDate(revokedKey.createdAt), 'ben@example.com', `Revoked ${formatDate(revokedKey.revokedAt)}`, '']);
    expect(within(revoked).queryByRole('button')).toBeNull();
    // The plan hint, the documentation and the operator's command stay.
    expect(screen.getByText(/API access is part of the business, agency and admin plans\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'API documentation' })).toHaveAttribute('href', '/api-docs');
    expect(screen.getByText('podlens keys create --data-dir DIR --email E --plan P')).toBeInTheDocument();
  });

  it('says so when the team has no keys yet, and shows a failed list with the server’s message', async () => {
    stubKeys({ list: { body: { apiKeys: [] } } });
    const view = renderApp('/app/team-settings/developers');
    expect(await screen.findByText('No API keys yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create API key' })).toBeEnabled();
    view.unmount();
    vi.unstubAllGlobals();
    stubKeys({ list: { status: 500, body: { status: 'INTERNAL', data: { message: 'internal error' } } } });
    renderApp('/app/team-settings/developers');
    expect(await screen.findByRole('alert')).toHaveTextContent('internal error');
  });

  it('creates a key with POST /teams/api-keys and shows the whole key this once', async () => {
    const api = stubKeys();
    renderApp('/app/team-settings/developers');
    await screen.findByRole('table', { name: 'API keys' });
    fireEvent.click(screen.getByRole('button', { name: 'Create API key' }));

    const panel = await screen.findByRole('region', { name: 'Your new API key' });
    expect(api.writes()).toHaveLength(1);
    const post = api.writes()[0];
    expect(post.init?.method).toBe('POST');
    expect(post.url.pathname).toBe(ROUTE);
    expect(post.init?.body).toBeUndefined();
    // The cookie session's writes carry the app's own header (the CSRF check).
    expect((post.init?.headers as Record<string, string>)['X-Podlens-Client']).toBe('web');

    expect(within(panel).getByRole('textbox', { name: 'New API key' })).toHaveValue(NEW_KEY);
    expect(panel).toHaveTextContent('you will not see it again');
    expect(within(panel).getByRole('heading', { name: 'Your new API key' })).toHaveFocus();
    fireEvent.click(within(panel).getByRole('button', { name: 'Copy key' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(NEW_KEY));
    expect(await within(panel).findByText('Copied')).toBeInTheDocument();

    // The list is asked again and names the new key by its prefix only.
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(4));
    expect(api.lists().length).toBeGreaterThanOrEqual(2);
    expect(rowOf('pl_7f7f7…')).not.toHaveTextContent(NEW_KEY);

    fireEvent.click(within(panel).getByRole('button', { name: 'I have saved the key' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Your new API key' })).toBeNull());
    expect(screen.queryByDisplayValue(NEW_KEY)).toBeNull();
    expect(document.body).not.toHaveTextContent(NEW_KEY);
    expect(screen.getByRole('button', { name: 'Create API key' })).toHaveFocus();
  });

  it('shows the server’s 403 message as sent when the plan has no API access', async () => {
    const message = 'Your plan does not include API access. Upgrade to the business, agency or admin plan.';
    const api = stubKeys({ create: { status: 403, body: { status: 'FORBIDDEN', data: { message } } } });
    renderApp('/app/team-settings/developers');
    await screen.findByRole('table', { name: 'API keys' });
    fireEvent.click(screen.getByRole('button', { name: 'Create API key' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(new RegExp(`^${message.replace(/\./g, '\\.')}$`));
    expect(api.writes().map((call) => [call.init?.method, call.url.pathname])).toEqual([['POST', ROUTE]]);
    expect(screen.queryByRole('region', { name: 'Your new API key' })).toBeNull();
  });

  it('revokes a key only after the confirmation, with DELETE /teams/api-keys/{keyId}', async () => {
    const api = stubKeys();
    renderApp('/app/team-settings/developers');
    await screen.findByRole('table', { name: 'API keys' });

    fireEvent.click(within(rowOf('pl_9c1e4…')).getByRole('button', { name: 'Revoke pl_9c1e4…' }));
    const confirm = screen.getByRole('group', { name: 'Confirm revoking pl_9c1e4…' });
    expect(api.writes()).toHaveLength(0);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('group', { name: /Confirm revoking/ })).toBeNull();
    expect(api.writes()).toHaveLength(0);

    fireEvent.click(within(rowOf('pl_9c1e4…')).getByRole('button', { name: 'Revoke pl_9c1e4…' }));
    fireEvent.click(within(screen.getByRole('group', { name: 'Confirm revoking pl_9c1e4…' })).getByRole('button', { name: 'Revoke key' }));
    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0].init?.method).toBe('DELETE');
    expect(api.writes()[0].url.pathname).toBe(`${ROUTE}/k2`);
    // The list is asked again and shows the key revoked, with no action left.
    await waitFor(() => expect(rowOf('pl_9c1e4…')).toHaveTextContent(`Revoked ${formatDate(REVOKED_AT)}`));
    expect(within(rowOf('pl_9c1e4…')).queryByRole('button')).toBeNull();
  });

  it('shows the server’s message when the key to revoke is gone', async () => {
    stubKeys({ revoke: { status: 404, body: { status: 'NOT_FOUND', data: { message: 'API key not found: k2' } } } });
    renderApp('/app/team-settings/developers');
    await screen.findByRole('table', { name: 'API keys' });
    fireEvent.click(within(rowOf('pl_9c1e4…')).getByRole('button', { name: 'Revoke pl_9c1e4…' }));
    fireEvent.click(screen.getByRole('button', { name: 'Revoke key' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('API key not found: k2');
  });

  it('works from the keyboard: Escape leaves the confirmation and focus returns to Revoke', async () => {
    const user = userEvent.setup();
    const api = stubKeys();
    renderApp('/app/team-settings/developers');
    await screen.findByRole('table', { name: 'API keys' });
    const revoke = screen.getByRole('button', { name: 'Revoke pl_9c1e4…' });
    revoke.focus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: /Confirm revoking/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Revoke pl_9c1e4…' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Revoke key' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(api.writes().map((call) => [call.init?.method, call.url.pathname])).toEqual([['DELETE', `${ROUTE}/k2`]]));
  });
});
