import type { ReactNode } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';

import { RequireUser } from '@/components/layouts/require-user';
import { SiteLayout } from '@/components/layouts/site-layout';
import { paths, type RouteName } from '@/config/paths';
import { SearchPage } from '@/features/search/components/search-page';

import {
  AboutPage,
  AlertsPage,
  ApiDocsPage,
  ApiStatusPage,
  AppPodcastsPage,
  ArticlesPage,
  AuthorityScorePage,
  BookingAgencyPage,
  ChartsPage,
  DashboardPage,
  DirectoryIndexPage,
  EmailLinkPage,
  ForPodcastersPage,
  FreePlanBookCallPage,
  GetStartedPage,
  GuestsPage,
  MagicEmailSentPage,
  MediaKitPage,
  NewGuestPage,
  NewProjectPage,
  NotFoundPage,
  OnboardingPage,
  OutreachPage,
  Podcast2StatsPage,
  PodcastsLandingPage,
  PricingPage,
  PrivacyPage,
  ProjectsPage,
  SignInPage,
  SignOutPage,
  SignUpPage,
  SolutionPage,
  TeamInvitePage,
  TermsPage,
  TranscriptionsPage,
  UpgradePage,
  ValidatePage,
  ValidationEmailSentPage,
} from './pages';
import { HomeRoute } from './routes/home';
import {
  AlertRoute,
  AppPodcastRoute,
  ArticleRoute,
  DirectoryLetterRoute,
  ErrorRoute,
  OutreachDetailRoute,
  PodcastRoute,
  ProjectGuestProfileRoute,
  ProjectRoute,
  TeamSettingsRoute,
  UserSettingsRoute,
} from './routes/param-routes';

const user = (element: ReactNode) => <RequireUser>{element}</RequireUser>;

/**
 * The element of every route of `paths`: the type makes a missing route a build error.
 * The landing page, the search page and a podcast page are part of the app's first
 * download; every other page loads its own code when it is first shown (see `./pages`).
 */
export const ROUTE_ELEMENTS: Record<RouteName, ReactNode> = {
  home: <HomeRoute />,
  about: <AboutPage />,
  articles: <ArticlesPage />,
  article: <ArticleRoute />,
  apiDocs: <ApiDocsPage />,
  apiStatus: <ApiStatusPage />,
  forPodcasters: <ForPodcastersPage />,
  getStarted: <GetStartedPage />,
  bookingAgency: <BookingAgencyPage />,
  pricing: <PricingPage />,
  privacy: <PrivacyPage />,
  terms: <TermsPage />,
  mediaKit: <MediaKitPage />,
  freePlanBookCall: <FreePlanBookCallPage />,
  podcasts: <PodcastsLandingPage />,
  directory: <DirectoryIndexPage />,
  directoryLetter: <DirectoryLetterRoute />,
  podcast: <PodcastRoute />,
  authorityScore: <AuthorityScorePage />,
  solutionPodcastApi: <SolutionPage kind="podcast-api" />,
  solutionApplePodcastApi: <SolutionPage kind="apple-podcast-api" />,
  solutionMonitoring: <SolutionPage kind="podcast-monitoring" />,
  solutionTranscripts: <SolutionPage kind="download-podcast-transcripts" />,
  statsPodcast2: <Podcast2StatsPage />,
  error: <ErrorRoute />,
  signIn: <SignInPage />,
  signInMagicEmailSent: <MagicEmailSentPage />,
  signInEmailLink: <EmailLinkPage />,
  signUp: <SignUpPage />,
  signUpValidationEmailSent: <ValidationEmailSentPage />,
  signUpValidate: <ValidatePage />,
  signOut: <SignOutPage />,
  teamInvite: <TeamInvitePage />,
  dashboard: user(<DashboardPage />),
  onboarding: user(<OnboardingPage />),
  upgrade: user(<UpgradePage />),
  alerts: user(<AlertsPage />),
  alert: <AlertRoute />,
  charts: user(<ChartsPage />),
  guests: user(<GuestsPage />),
  guestNew: user(<NewGuestPage />),
  outreach: user(<OutreachPage />),
  outreachDetail: <OutreachDetailRoute />,
  appPodcasts: user(<AppPodcastsPage />),
  appPodcast: <AppPodcastRoute />,
  appPodcastSubPage: <AppPodcastRoute />,
  listNew: user(<NewProjectPage />),
  projects: user(<ProjectsPage />),
  project: <ProjectRoute />,
  projectGuestProfile: <ProjectGuestProfileRoute />,
  projectSubPage: <ProjectRoute />,
  // Search is open to signed-out visitors with the public plan's caps (SPEC §6, §9).
  search: <SearchPage />,
  transcriptions: user(<TranscriptionsPage />),
  teamSettings: <TeamSettingsRoute />,
  teamSettingsSection: <TeamSettingsRoute />,
  teamSettingsSubSection: <TeamSettingsRoute />,
  userSettings: <UserSettingsRoute />,
  userSettingsSection: <UserSettingsRoute />,
  userSettingsSlug: <UserSettingsRoute />,
  userSettingsSubSection: <UserSettingsRoute />,
};

export function appRoutes(): RouteObject[] {
  return [
    {
      element: <SiteLayout />,
      children: [
        ...(Object.keys(paths) as RouteName[]).map((name) => ({ path: paths[name].pattern, element: ROUTE_ELEMENTS[name] })),
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ];
}

export const createAppRouter = () => createBrowserRouter(appRoutes());
