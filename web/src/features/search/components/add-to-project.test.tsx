import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { setApiKey } from '@/lib/auth-storage';
import { renderWithProviders, stubApi } from '@/test/render';
import { specSection } from '@/test/spec';

import { AddToProject } from './add-to-project';

// SPEC §4: the project statuses; podcasts are added to the ACTIVE ones only.
const PROJECT_STATUSES = specSection(4).match(/Project status: ([^.]+)\./)![1].split(', ');

const project = (slug: string, name: string, status: string) => ({ projectId: `id-${slug}`, slug, name, status, lastUpdated: '2026-11-01' });
const everyStatus = PROJECT_STATUSES.map((status) => project(status.toLowerCase(), `${status} project`, status));

beforeEach(() => setApiKey('pl_key'));
afterEach(() => vi.unstubAllGlobals());

function stubProjects(projects: unknown[], add: () => { status?: number; body: unknown } = () => ({ body: { listedPodcast: {} } })) {
  return stubApi((url, init) => {
    if (url.pathname === '/api/v1/projects') return { body: { options: {}, projects } };
    if (url.pathname.endsWith('/podcasts') && init?.method === 'POST') return add();
    return undefined;
  });
}

describe('the add-to-project picker', () => {
  it('offers only the active projects, not archived, draft, pending or failed ones (regression: it listed archived projects)', async () => {
    expect(PROJECT_STATUSES).toContain('ARCHIVED');
    const calls = stubProjects([...everyStatus, project('spring', 'Spring pitch', 'ACTIVE')]);
    renderWithProviders(<AddToProject podcastId="p1" />);
    const picker = await screen.findByRole('combobox', { name: 'Project' });
    expect(within(picker).getAllByRole('option').map((option) => option.textContent)).toEqual(['ACTIVE project', 'Spring pitch']);
    await userEvent.selectOptions(picker, 'Spring pitch');
    await userEvent.click(screen.getByRole('button', { name: 'Add to project' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Added to Spring pitch');
    const post = calls.find((call) => call.init?.method === 'POST')!;
    expect(post.url.pathname).toBe('/api/v1/projects/spring/podcasts');
    // SPEC §4: a newly added podcast is a prospect.
    expect(JSON.parse(String(post.init?.body))).toEqual({ podcastId: 'p1', state: 'prospect' });
  });

  it('offers nothing when no project is active, or a link to a new one where asked', async () => {
    const inactive = everyStatus.filter((item) => item.status !== 'ACTIVE');
    stubProjects(inactive);
    const view = renderWithProviders(<AddToProject podcastId="p1" />);
    await waitFor(() => expect(screen.queryByRole('combobox')).toBeNull());
    expect(screen.queryByRole('button', { name: 'Add to project' })).toBeNull();
    view.unmount();
    renderWithProviders(<AddToProject podcastId="p1" offerNewProject />);
    expect(await screen.findByRole('link', { name: 'Create a project' })).toHaveAttribute('href', '/app/lists/new');
    expect(screen.queryByRole('button', { name: 'Add to project' })).toBeNull();
  });

  it('starts on the chosen project only when it is active', async () => {
    stubProjects([project('old', 'Old pitch', 'ARCHIVED'), project('spring', 'Spring pitch', 'ACTIVE')]);
    renderWithProviders(<AddToProject podcastId="p1" defaultProjectSlug="old" />);
    expect(await screen.findByRole('combobox', { name: 'Project' })).toHaveValue('spring');
  });

  it('says when the project already has the podcast', async () => {
    stubProjects([project('spring', 'Spring pitch', 'ACTIVE')], () => ({
      status: 400,
      body: { status: 'BAD_REQUEST', data: { message: 'Podcast p1 is already listed in this project' } },
    }));
    renderWithProviders(<AddToProject podcastId="p1" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Add to project' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Already on Spring pitch');
  });
});
