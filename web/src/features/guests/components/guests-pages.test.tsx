import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { setApiKey } from '@/lib/auth-storage';
import { renderApp, stubApi } from '@/test/render';
import { specSection } from '@/test/spec';

beforeEach(() => setApiKey('pl_key'));
afterEach(() => vi.unstubAllGlobals());

const project = (slug: string, guest: { id: string; name: string } | null) => ({
  projectId: `id-${slug}`,
  name: `Project ${slug}`,
  slug,
  teamId: 't1',
  createdAt: '2026-01-01',
  lastUpdated: '2026-01-01',
  createdBy: null,
  projectTypes: ['guest-booking'],
  status: 'ACTIVE',
  listedPodcastsCount: 4,
  linkedGuestProfile: guest ? { ...guest, slug: guest.id, status: 'ACTIVE', imageUrl: null, linkedinUrl: null, companyName: 'Acme', appearancesCount: 0 } : null,
  stateCounts: { prospect: 0, qualified: 0, pitched: 0, lost: 0, booked: 0, ignored: 0 },
  documentsCount: { total: 0, processed: 0 },
  recentActivities: [],
});

describe('guest profiles', () => {
  it('lists the profiles linked to the team’s projects', async () => {
    stubApi((url) =>
      url.pathname === '/api/v1/projects' ? { body: { options: {}, projects: [project('ana', { id: 'g1', name: 'Ana Lopez' }), project('plain', null)] } } : undefined,
    );
    renderApp('/app/guests');
    const link = await screen.findByRole('link', { name: 'Ana Lopez' });
    expect(link).toHaveAttribute('href', '/app/projects/ana/guest-profile');
    expect(screen.queryByText('Project plain')).toBeNull();
  });

  it('shows the required-field messages of SPEC §5 and sends nothing', async () => {
    const calls = stubApi(() => undefined);
    renderApp('/app/guests/new');
    fireEvent.click(await screen.findByRole('button', { name: 'Create guest profile' }));
    const message = specSection(5).match(/message '(Short bio is required\.[^']+)'/)![1];
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(screen.getByText(message.replace('Short bio', 'Topics to discuss'))).toBeInTheDocument();
    expect(calls.filter((call) => call.url.pathname.startsWith('/api/v1/guest-profiles'))).toHaveLength(0);
  });

  it('creates a profile from the onboarding form and opens it', async () => {
    const profile = {
      projectId: 'pr9',
      projectSlug: 'ana-lopez',
      guestProfileId: 'g9',
      guestProfileSlug: 'ana-lopez',
      publicSlug: null,
      name: 'Ana Lopez',
      status: 'ACTIVE',
      createdAt: '2026-11-01',
      updatedAt: '2026-11-01',
      documents: [],
      listedPodcastsCount: 0,
      bookingUrl: null,
      companyName: 'Acme',
      email: null,
      firstName: 'Ana',
      lastName: 'Lopez',
      onePagerUrl: null,
      phone: null,
      websiteUrl: null,
      imageUrl: null,
      createdBy: { id: 'u1' },
      socialMediaLinks: [],
      guestBio: { shortBio: 'Soil scientist.', longBio: '', goals: ['Reach farmers'], areasOfExpertise: ['Soil'], topicsToDiscuss: ['Compost'], thingsToAvoid: [], additionalContext: null },
      publicViewSettings: null,
    };
    const calls = stubApi((url, init) => {
      if (url.pathname === '/api/v1/guest-profiles/onboarding-form' && init?.method === 'POST')
        return { body: { guestProfileId: 'g9', guestProfileSlug: 'ana-lopez', projectId: 'pr9', projectSlug: 'ana-lopez' } };
      if (url.pathname === '/api/v1/guest-profiles/ana-lopez') return { body: profile };
      return undefined;
    });
    const { router } = renderApp('/app/guests/new');
    const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
    fill('First name', 'Ana');
    fill('Last name', 'Lopez');
    fill('Short bio', 'Soil scientist.');
    fill('Goals', 'Reach farmers');
    fill('Expertise', 'Soil');
    fill('Topics to discuss', 'Compost');
    fireEvent.click(screen.getByRole('button', { name: 'Create guest profile' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Ana Lopez' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/app/projects/ana-lopez/guest-profile');
    const post = calls.find((call) => call.init?.method === 'POST')!;
    expect(JSON.parse(String(post.init?.body))).toMatchObject({ firstName: 'Ana', lastName: 'Lopez', shortBio: 'Soil scientist.', topicsToDiscuss: 'Compost', websiteUrl: '' });
    expect(screen.getByText('Compost')).toBeInTheDocument();
  });

  it('says when a project has no guest profile', async () => {
    stubApi((url) =>
      url.pathname === '/api/v1/guest-profiles/plain' ? { status: 404, body: { status: 'NOT_FOUND', data: { message: 'Guest profile not found: plain' } } } : undefined,
    );
    renderApp('/app/projects/plain/guest-profile');
    expect(await screen.findByText('This project has no guest profile')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('link', { name: 'Create a guest profile' })).toHaveAttribute('href', '/app/guests/new'));
  });
});
