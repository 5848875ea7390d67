import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { setApiKey } from '@/lib/auth-storage';
import { renderApp, stubApi } from '@/test/render';
import { specSection } from '@/test/spec';

// SPEC §4: a transcription request is not_started or completed.
const [NOT_STARTED, COMPLETED] = specSection(4).match(/Transcription request: ([a-z_]+), ([a-z_]+)\./)!.slice(1);

const request = (episodeTitle: string, completedAt: string | null, failureReason: string | null = null) => ({
  requestType: 'transcription',
  episodeId: `e-${episodeTitle}`,
  episodeSlug: episodeTitle.toLowerCase().replace(/ /g, '-'),
  episodeTitle,
  episodeImageUrl: null,
  podcastId: 'p1',
  podcastSlug: 'climate-hour',
  podcastTitle: 'Climate Hour',
  podcastImageUrl: null,
  requestedAt: '2026-11-02T09:00:00Z',
  requestedByUserId: 'u1',
  completedAt,
  failureReason,
});

beforeEach(() => setApiKey('pl_key'));
afterEach(() => vi.unstubAllGlobals());

describe('the transcriptions page', () => {
  it("lists the team's requests with their podcast and status", async () => {
    const calls = stubApi((url) =>
      url.pathname === '/api/v1/teams/transcriptions'
        ? { body: { totalRequests: 3, requests: [request('Soil and climate', '2026-11-03T10:00:00Z'), request('Moths at night', null), request('Broken audio', null, 'audio could not be fetched')] } }
        : undefined,
    );
    renderApp('/app/transcriptions');
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    expect(within(rows[0]).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['Soil and climate', 'Climate Hour', expect.any(String), COMPLETED]);
    expect(within(rows[1]).getAllByRole('cell')[3]).toHaveTextContent(NOT_STARTED);
    expect(within(rows[2]).getAllByRole('cell')[3]).toHaveTextContent('failed: audio could not be fetched');
    expect(within(rows[0]).getByRole('link', { name: 'Climate Hour' })).toHaveAttribute('href', '/podcasts/climate-hour');
    const call = calls.find((item) => item.url.pathname === '/api/v1/teams/transcriptions')!;
    expect(Object.fromEntries(call.url.searchParams.entries())).toEqual({ limit: '100', skip: '0' });
  });

  it('says when there are no requests yet', async () => {
    stubApi((url) => (url.pathname === '/api/v1/teams/transcriptions' ? { body: { totalRequests: 0, requests: [] } } : undefined));
    renderApp('/app/transcriptions');
    expect(await screen.findByText('No transcription requests yet')).toBeInTheDocument();
  });

  it("shows the server's message when the list cannot be read", async () => {
    stubApi((url) =>
      url.pathname === '/api/v1/teams/transcriptions' ? { status: 403, body: { status: 'FORBIDDEN', data: { message: 'Transcription requests are not included in the free plan' } } } : undefined,
    );
    renderApp('/app/transcriptions');
    expect(await screen.findByRole('alert')).toHaveTextContent('Transcription requests are not included in the free plan');
  });
});
