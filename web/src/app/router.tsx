import type { ReactNode } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';

import { RequireUser } from '@/components/layouts/require-user';
import { SiteLayout } from '@/components/layouts/site-layout';
import { AlertsPage } from '@/features/alerts/components/alerts-pages';
import { ApiDocsPage, ApiStatusPage } from '@/features/api-docs/components/api-docs-page';
import {
  EmailLinkPage,
  MagicEmailSentPage,
  SignInPage,
  SignOutPage,
  SignUpPage,
  TeamInvitePage,
  ValidatePage,
  ValidationEmailSentPage,
} from '@/features/auth/components/auth-pages';
import { ChartsPage } from '@/features/charts/components/charts-page';
import {
  AboutPage,
  ArticlesPage,
  AuthorityScorePage,
  BookingAgencyPage,
  ForPodcastersPage,
  FreePlanBookCallPage,
  GetStartedPage,
  MediaKitPage,
  NotFoundPage,
  PrivacyPage,
  SolutionPage,
  TermsPage,
} from '@/features/content/components/content-pages';
import { DashboardPage } from '@/features/dashboard/components/dashboard-page';
import { DirectoryIndexPage } from '@/features/directory/components/directory-page';
import { GuestsPage, NewGuestPage } from '@/features/guests/components/guests-pages';
import { OutreachPage } from '@/features/outreach/components/outreach-pages';
import { AppPodcastsPage } from '@/features/podcasts/components/app-podcast-pages';
import { PodcastsLandingPage } from '@/features/podcasts/components/podcasts-landing';
import { PricingPage } from '@/features/pricing/components/pricing-page';
import { OnboardingPage, UpgradePage } from '@/features/pricing/components/upgrade-pages';
import { NewProjectPage, ProjectsPage } from '@/features/projects/components/projects-pages';
import { SearchPage } from '@/features/search/components/search-page';
import { Podcast2StatsPage } from '@/features/stats/components/podcast2-stats-page';
import { TranscriptionsPage } from '@/features/transcriptions/components/transcriptions-page';
import { paths, type RouteName } from '@/config/paths';

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

/** The element of every route of `paths`: the type makes a missing route a build error. */
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
