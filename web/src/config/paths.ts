// Every route of the product (SPEC §2) in one place: the router is built from these
// patterns and every link is built with these helpers.

export type RouteAccess = 'public' | 'user';

export type RouteDefinition = {
  /** react-router pattern */
  pattern: string;
  access: RouteAccess;
  title: string;
};

const route = (pattern: string, access: RouteAccess, title: string): RouteDefinition => ({
  pattern,
  access,
  title,
});

export const paths = {
  home: route('/', 'public', 'Podcast search'),
  about: route('/about', 'public', 'About'),
  articles: route('/articles', 'public', 'Articles'),
  article: route('/articles/:slug', 'public', 'Article'),
  apiDocs: route('/api-docs', 'public', 'API documentation'),
  apiStatus: route('/api-docs/api-status', 'public', 'API status'),
  forPodcasters: route('/for-podcasters', 'public', 'For podcasters'),
  getStarted: route('/get-started', 'public', 'Get started'),
  bookingAgency: route('/podcast-booking-agency', 'public', 'For podcast booking agencies'),
  pricing: route('/pricing', 'public', 'Pricing'),
  privacy: route('/privacy', 'public', 'Privacy policy'),
  terms: route('/terms', 'public', 'Terms of service'),
  mediaKit: route('/media-kit', 'public', 'Media kit'),
  freePlanBookCall: route('/free-plan-book-a-call', 'public', 'Book a call'),
  podcasts: route('/podcasts', 'public', 'Podcasts'),
  directory: route('/podcasts/directory', 'public', 'Podcast directory'),
  directoryLetter: route('/podcasts/directory/:letter', 'public', 'Podcast directory'),
  podcast: route('/podcasts/:podcastSlug', 'public', 'Podcast'),
  authorityScore: route('/podcast-authority-score', 'public', 'Podcast authority score'),
  solutionPodcastApi: route('/solutions/podcast-api', 'public', 'Podcast API'),
  solutionApplePodcastApi: route('/solutions/podcast-api/apple-podcast-api', 'public', 'Apple Podcast API'),
  solutionMonitoring: route('/solutions/podcast-monitoring', 'public', 'Podcast monitoring'),
  solutionTranscripts: route('/solutions/download-podcast-transcripts', 'public', 'Download podcast transcripts'),
  statsPodcast2: route('/stats/podcast-2', 'public', 'Podcasting 2.0 adoption'),
  error: route('/errors/:code', 'public', 'Error'),

  signIn: route('/sign-in', 'public', 'Sign in'),
  signInMagicEmailSent: route('/sign-in/magic-email-sent', 'public', 'Check your email'),
  signInEmailLink: route('/sign-in/email-link', 'public', 'Signing you in'),
  signUp: route('/sign-up', 'public', 'Create your account'),
  signUpValidationEmailSent: route('/sign-up/validation-email-sent', 'public', 'Check your email'),
  signUpValidate: route('/sign-up/validate', 'public', 'Validating your email'),
  signOut: route('/app/sign-out', 'public', 'Sign out'),
  teamInvite: route('/team-invite', 'public', 'Joining a team'),

  dashboard: route('/app', 'user', 'Dashboard'),
  onboarding: route('/onboarding', 'user', 'Welcome'),
  upgrade: route('/app/upgrade', 'user', 'Upgrade'),
  alerts: route('/app/alerts', 'user', 'Alerts'),
  alert: route('/app/alerts/:alertId', 'user', 'Alert'),
  charts: route('/app/charts', 'user', 'Charts'),
  guests: route('/app/guests', 'user', 'Guest profiles'),
  guestNew: route('/app/guests/new', 'user', 'New guest profile'),
  outreach: route('/app/outreach', 'user', 'Outreach'),
  outreachDetail: route('/app/outreach/:outreachId', 'user', 'Outreach email'),
  appPodcasts: route('/app/podcasts', 'user', 'Podcasts'),
  appPodcast: route('/app/podcasts/:podcastSlug', 'user', 'Podcast'),
  appPodcastSubPage: route('/app/podcasts/:podcastSlug/:subPage', 'user', 'Podcast'),
  listNew: route('/app/lists/new', 'user', 'New project'),
  projects: route('/app/projects', 'user', 'Projects'),
  project: route('/app/projects/:slug', 'user', 'Project'),
  projectGuestProfile: route('/app/projects/:slug/guest-profile', 'user', 'Project guest profile'),
  projectSubPage: route('/app/projects/:slug/:subPage', 'user', 'Project'),
  search: route('/app/search', 'user', 'Search'),
  transcriptions: route('/app/transcriptions', 'user', 'Transcriptions'),
  teamSettings: route('/app/team-settings', 'user', 'Team settings'),
  teamSettingsSection: route('/app/team-settings/:section', 'user', 'Team settings'),
  teamSettingsSubSection: route('/app/team-settings/:section/:subSection', 'user', 'Team settings'),
  userSettings: route('/app/user-settings', 'user', 'User settings'),
  userSettingsSection: route('/app/user-settings/:section', 'user', 'User settings'),
  userSettingsSlug: route('/app/user-settings/:section/:slug', 'user', 'User settings'),
  userSettingsSubSection: route('/app/user-settings/:section/:slug/:subSection', 'user', 'User settings'),
} as const satisfies Record<string, RouteDefinition>;

export type RouteName = keyof typeof paths;

/** Route access is public or user; anything else is refused (SPEC §2). */
export function assertRouteAccess(access: string): RouteAccess {
  if (access === 'public' || access === 'user') return access;
  throw new Error('Unexpected type');
}

/** Podcast slugs that would collide with other routes beneath /podcasts (SPEC §2). */
export const RESERVED_PODCAST_SLUGS = ['directory', 'id', 'latest_episodes', 'search'] as const;

export function isValidPodcastSlug(slug: string): boolean {
  return slug.length > 0 && !(RESERVED_PODCAST_SLUGS as readonly string[]).includes(slug.toLowerCase());
}

/** Directory letters: a lowercase letter, or `0` for titles starting with anything else. */
export const DIRECTORY_LETTERS = [...'abcdefghijklmnopqrstuvwxyz', '0'] as const;

export function isDirectoryLetter(letter: string): boolean {
  return (DIRECTORY_LETTERS as readonly string[]).includes(letter);
}

export const TEAM_SETTINGS_SECTIONS = [
  'activity-history',
  'billing',
  'custom-prompts',
  'developers',
  'integrations',
  'podcast-blacklist',
  'search-usage',
  'team-podcasts',
  'team',
] as const;
export type TeamSettingsSection = (typeof TEAM_SETTINGS_SECTIONS)[number];

export const USER_SETTINGS_SECTIONS = ['profile', 'outreach-templates'] as const;
export type UserSettingsSection = (typeof USER_SETTINGS_SECTIONS)[number];

const q = (params: Record<string, string | undefined | null>): string => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, value);
  }
  const text = search.toString();
  return text ? `?${text}` : '';
};

const enc = encodeURIComponent;

/** Link builders for every route with parameters. */
export const links = {
  podcast: (slug: string) => `/podcasts/${enc(slug)}`,
  appPodcast: (slug: string, subPage?: string) =>
    subPage ? `/app/podcasts/${enc(slug)}/${enc(subPage)}` : `/app/podcasts/${enc(slug)}`,
  directoryLetter: (letter: string) => `/podcasts/directory/${enc(letter.toLowerCase())}`,
  article: (slug: string) => `/articles/${enc(slug)}`,
  error: (code: string | number, message?: string) => `/errors/${enc(String(code))}${q({ message })}`,
  signIn: (params: { email?: string; source?: string; message?: string } = {}) => `/sign-in${q(params)}`,
  signUpValidationEmailSent: (params: { email?: string; source?: string } = {}) =>
    `/sign-up/validation-email-sent${q(params)}`,
  search: (params: { selectedProjectSlug?: string; q?: string } = {}) =>
    `/app/search${q({ 'selected-project-slug': params.selectedProjectSlug, q: params.q })}`,
  charts: (params: { chartType?: string; country?: string; category?: string; date?: string } = {}) =>
    `/app/charts${q(params)}`,
  alert: (alertId: string) => `/app/alerts/${enc(alertId)}`,
  /** A stored email, or with the id `new` the generator for the podcast and guest given. */
  outreach: (id: string, params: { podcastId?: string; guestProfileId?: string; projectId?: string } = {}) =>
    `/app/outreach/${enc(id)}${q({ 'podcast-id': params.podcastId, 'guest-profile-id': params.guestProfileId, 'project-id': params.projectId })}`,
  project: (slug: string, subPage?: string) =>
    subPage ? `/app/projects/${enc(slug)}/${enc(subPage)}` : `/app/projects/${enc(slug)}`,
  teamSettings: (section?: string, subSection?: string) =>
    ['/app/team-settings', section, subSection].filter(Boolean).join('/'),
  userSettings: (section?: string, slug?: string, subSection?: string) =>
    ['/app/user-settings', section, slug, subSection].filter(Boolean).join('/'),
};

export const SIGNED_OUT_MESSAGE = 'You have been signed out';
