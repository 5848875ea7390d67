import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';

import { setApiKey } from './auth-storage';
import { ApiClientError, apiRequest, call, downloadRequest, fillPath, searchRequest } from './api-client';
import type { GetPodcastResponse } from './api-types';

// The messages of SPEC §8, copied from the specification text.
const SPEC_REQUEST_FAILED = 'API request failed with error: ';
const SPEC_NETWORK = 'Unable to connect to the API server. Please try again later.';
const SPEC_UNKNOWN = 'Unknown error';

function mockFetch(status: number, body: string, statusText = '') {
  const fetchMock = vi.fn(async () => new Response(body, { status, statusText }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('apiRequest', () => {
  it('unwraps the envelope data', async () => {
    mockFetch(200, JSON.stringify({ status: 'OK', data: { podcasts: [1, 2] } }));
    await expect(apiRequest('/podcasts/latest')).resolves.toEqual({ podcasts: [1, 2] });
  });

  it('sends the stored API key as the Authorization header, raw', async () => {
    const fetchMock = mockFetch(200, JSON.stringify({ status: 'OK', data: {} }));
    setApiKey('pl_secret');
    await apiRequest('/teams/users');
    const init = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect((init[1].headers as Record<string, string>).Authorization).toBe('pl_secret');
    expect(init[0]).toBe('/api/v1/teams/users');
  });

  it('marks every request as the app\'s own and sends cookies to the same origin only', async () => {
    const fetchMock = mockFetch(200, JSON.stringify({ status: 'OK', data: {} }));
    setApiKey(null);
    await apiRequest('/auth/sign-out', { method: 'POST' });
    const init = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    const headers = init[1].headers as Record<string, string>;
    // The server refuses cookie-authenticated writes without this header (CSRF).
    expect(headers['X-Podlens-Client']).toBe('web');
    expect(headers.Authorization).toBeUndefined();
    expect(init[1].credentials).toBe('same-origin');
  });

  it('rejects a non-OK answer with the body in the message', async () => {
    const body = JSON.stringify({ status: 'UNAUTHORIZED', data: { message: 'Invalid authorization token' } });
    mockFetch(401, body, 'Unauthorized');
    const error = await apiRequest('/projects').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiClientError);
    expect((error as ApiClientError).message).toBe(SPEC_REQUEST_FAILED + body);
    expect((error as ApiClientError).serverMessage).toBe('Invalid authorization token');
    expect((error as ApiClientError).isUnauthorized).toBe(true);
  });

  it('treats a 200 whose status is not OK as a failure', async () => {
    const body = JSON.stringify({ status: 'BAD_REQUEST', data: { message: 'nope' } });
    mockFetch(200, body);
    await expect(apiRequest('/x')).rejects.toThrow(SPEC_REQUEST_FAILED + body);
  });

  it('reports a network failure with the connection message', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(apiRequest('/x')).rejects.toThrow(SPEC_NETWORK);
  });

  it('recognises a route the server does not have', async () => {
    mockFetch(404, JSON.stringify({ status: 'NOT_FOUND', data: { message: 'Route not found' } }));
    const error = (await apiRequest('/nothing').catch((e: unknown) => e)) as ApiClientError;
    expect(error.isNotAvailable).toBe(true);
  });

  it('builds repeated query parameters and skips empty ones', async () => {
    const fetchMock = mockFetch(200, JSON.stringify({ status: 'OK', data: {} }));
    await apiRequest('/projects', { query: { states: ['ACTIVE', 'DRAFT'], empty: '', none: undefined, limit: 5 } });
    expect((fetchMock.mock.calls[0] as unknown as [string])[0]).toBe('/api/v1/projects?states=ACTIVE&states=DRAFT&limit=5');
  });
});

describe('searchRequest', () => {
  it('returns the server data.message on a refusal', async () => {
    mockFetch(400, JSON.stringify({ status: 'BAD_REQUEST', data: { message: 'At least one sort order is required.' } }), 'Bad Request');
    await expect(searchRequest('/search/podcasts', {})).resolves.toEqual({
      success: false,
      error: 'At least one sort order is required.',
      httpStatus: 400,
    });
  });

  it('falls back to data.error', async () => {
    mockFetch(500, JSON.stringify({ status: 'ERROR', data: { error: 'boom' } }), 'Internal Server Error');
    const outcome = await searchRequest('/search/podcasts', {});
    expect(outcome).toMatchObject({ success: false, error: 'boom' });
  });

  it('falls back to the status text when the body has no message', async () => {
    mockFetch(502, '<html>bad gateway</html>', 'Bad Gateway');
    const outcome = await searchRequest('/search/episodes', {});
    expect(outcome).toMatchObject({ success: false, error: SPEC_REQUEST_FAILED + 'Bad Gateway' });
  });

  it('reports a network failure with the connection message', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('network down'))));
    await expect(searchRequest('/search/episodes', {})).resolves.toMatchObject({ success: false, error: SPEC_NETWORK });
  });

  it('reports any other failure by its message, or Unknown error', async () => {
    mockFetch(200, 'x');
    vi.stubGlobal('fetch', vi.fn(async () => ({ ok: true, status: 200, text: async () => Promise.reject(new Error('stream broke')) })));
    await expect(searchRequest('/search/episodes', {})).resolves.toMatchObject({ success: false, error: 'stream broke' });
    vi.stubGlobal('fetch', vi.fn(async () => ({ ok: true, status: 200, text: async () => Promise.reject(new Error('')) })));
    await expect(searchRequest('/search/episodes', {})).resolves.toMatchObject({ success: false, error: SPEC_UNKNOWN });
  });

  it('posts the body as JSON and returns the data', async () => {
    const fetchMock = mockFetch(200, JSON.stringify({ status: 'OK', data: { searchMode: 'podcasts' } }));
    await expect(searchRequest('/search/podcasts', { sortOrder: [] })).resolves.toEqual({ success: true, data: { searchMode: 'podcasts' } });
    const init = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"sortOrder":[]}');
  });
});

describe('downloadRequest', () => {
  it('uses the status text, not the body, for exports and downloads', async () => {
    mockFetch(403, JSON.stringify({ status: 'FORBIDDEN', data: { message: 'no' } }), 'Forbidden');
    await expect(downloadRequest('/export/podcasts')).rejects.toThrow(SPEC_REQUEST_FAILED + 'Forbidden');
  });
});

describe('call (typed by the OpenAPI document)', () => {
  it('fills and encodes path parameters, sends the method, query and body, and unwraps data', async () => {
    const fetchMock = mockFetch(200, JSON.stringify({ status: 'OK', data: { podcast: { podcastId: 'p1' } } }));
    setApiKey(null);
    const answer = await call('get', '/podcasts/{podcastIdOrSlug}', { path: { podcastIdOrSlug: 'a b/c' } });
    expectTypeOf(answer).toEqualTypeOf<GetPodcastResponse>();
    expect(answer).toEqual({ podcast: { podcastId: 'p1' } });
    expect((fetchMock.mock.calls[0] as unknown as [string])[0]).toBe('/api/v1/podcasts/a%20b%2Fc');

    await call('patch', '/projects/{projectSlug}', { path: { projectSlug: 'p' }, body: { projectPurpose: 'New purpose' } });
    const [url, init] = fetchMock.mock.calls[1] as unknown as [string, RequestInit];
    expect(url).toBe('/api/v1/projects/p');
    expect(init.method).toBe('PATCH');
    expect(init.body).toBe(JSON.stringify({ projectPurpose: 'New purpose' }));

    await call('get', '/teams/usage/daily', { query: { window: '7d' } });
    expect((fetchMock.mock.calls[2] as unknown as [string])[0]).toBe('/api/v1/teams/usage/daily?window=7d');
  });

  it('refuses a route parameter with no value', () => {
    expect(() => fillPath('/podcasts/{podcastIdOrSlug}', {})).toThrow('no value for podcastIdOrSlug');
  });
});
