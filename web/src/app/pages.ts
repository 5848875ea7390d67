// The pages of the app that load their own code the first time they are shown. The pages
// visitors land on (the landing page, the search page, a podcast page) come with the app's
// first download instead, so they render without waiting for more code; every other
// screen stays out of it, and the chart library is loaded only by pages that draw a
// chart (src/components/charts/charts.tsx). The site layout shows "Loading page…" while
// a page's code arrives.

import { createElement, lazy, type ComponentType } from 'react';

/** Any page, whatever its props. */
type Page = ComponentType<any>;

const preloads: (() => Promise<void>)[] = [];

/**
 * The component `name` of the module `load` imports: the first render loads the module
 * (the page suspends meanwhile); once it is loaded, the page renders at once.
 */
export function lazyPage<M extends Record<K, Page>, K extends keyof M>(load: () => Promise<M>, name: K): M[K] {
  let loaded: M[K] | undefined;
  const preload = async () => {
    loaded ??= (await load())[name];
  };
  const Suspending = lazy(async () => {
    await preload();
    return { default: loaded as Page };
  });
  const Shown = (props: object) => createElement((loaded ?? Suspending) as Page, props);
  Shown.displayName = String(name);
  preloads.push(preload);
  return Shown as unknown as M[K];
}

/** Loads the code of every page (tests render pages without waiting for their code). */
export async function loadEveryPage(): Promise<void> {
  await Promise.all(preloads.map((preload) => preload()));
}

const alerts = () => import('@/features/alerts/components/alerts-pages');
const apiDocs = () => import('@/features/api-docs/components/api-docs-page');
const auth = () => import('@/features/auth/components/auth-pages');
const charts = () => import('@/features/charts/components/charts-page');
const content = () => import('@/features/content/components/content-pages');
const dashboard = () => import('@/features/dashboard/components/dashboard-page');
const directory = () => import('@/features/directory/components/directory-page');
const guests = () => import('@/features/guests/components/guests-pages');
const outreach = () => import('@/features/outreach/components/outreach-pages');
const appPodcasts = () => import('@/features/podcasts/components/app-podcast-pages');
const podcastsLanding = () => import('@/features/podcasts/components/podcasts-landing');
const pricing = () => import('@/features/pricing/components/pricing-page');
const upgrade = () => import('@/features/pricing/components/upgrade-pages');
const projects = () => import('@/features/projects/components/projects-pages');
const settings = () => import('@/features/settings/components/settings-pages');
const stats = () => import('@/features/stats/components/podcast2-stats-page');
const transcriptions = () => import('@/features/transcriptions/components/transcriptions-page');

export const AlertsPage = lazyPage(alerts, 'AlertsPage');
export const ApiDocsPage = lazyPage(apiDocs, 'ApiDocsPage');
export const ApiStatusPage = lazyPage(apiDocs, 'ApiStatusPage');

export const EmailLinkPage = lazyPage(auth, 'EmailLinkPage');
export const MagicEmailSentPage = lazyPage(auth, 'MagicEmailSentPage');
export const SignInPage = lazyPage(auth, 'SignInPage');
export const SignOutPage = lazyPage(auth, 'SignOutPage');
export const SignUpPage = lazyPage(auth, 'SignUpPage');
export const TeamInvitePage = lazyPage(auth, 'TeamInvitePage');
export const ValidatePage = lazyPage(auth, 'ValidatePage');
export const ValidationEmailSentPage = lazyPage(auth, 'ValidationEmailSentPage');

export const ChartsPage = lazyPage(charts, 'ChartsPage');

export const AboutPage = lazyPage(content, 'AboutPage');
export const ArticlePage = lazyPage(content, 'ArticlePage');
export const ArticlesPage = lazyPage(content, 'ArticlesPage');
export const AuthorityScorePage = lazyPage(content, 'AuthorityScorePage');
export const BookingAgencyPage = lazyPage(content, 'BookingAgencyPage');
export const ErrorPage = lazyPage(content, 'ErrorPage');
export const ForPodcastersPage = lazyPage(content, 'ForPodcastersPage');
export const FreePlanBookCallPage = lazyPage(content, 'FreePlanBookCallPage');
export const GetStartedPage = lazyPage(content, 'GetStartedPage');
export const MediaKitPage = lazyPage(content, 'MediaKitPage');
export const NotFoundPage = lazyPage(content, 'NotFoundPage');
export const PrivacyPage = lazyPage(content, 'PrivacyPage');
export const SolutionPage = lazyPage(content, 'SolutionPage');
export const TermsPage = lazyPage(content, 'TermsPage');

export const DashboardPage = lazyPage(dashboard, 'DashboardPage');
export const DirectoryIndexPage = lazyPage(directory, 'DirectoryIndexPage');
export const DirectoryLetterPage = lazyPage(directory, 'DirectoryLetterPage');

export const GuestsPage = lazyPage(guests, 'GuestsPage');
export const NewGuestPage = lazyPage(guests, 'NewGuestPage');
export const ProjectGuestProfilePage = lazyPage(guests, 'ProjectGuestProfilePage');

export const OutreachPage = lazyPage(outreach, 'OutreachPage');
export const OutreachDetailPage = lazyPage(outreach, 'OutreachDetailPage');

export const AppPodcastsPage = lazyPage(appPodcasts, 'AppPodcastsPage');
export const AppPodcastPage = lazyPage(appPodcasts, 'AppPodcastPage');
export const PodcastsLandingPage = lazyPage(podcastsLanding, 'PodcastsLandingPage');

export const PricingPage = lazyPage(pricing, 'PricingPage');
export const OnboardingPage = lazyPage(upgrade, 'OnboardingPage');
export const UpgradePage = lazyPage(upgrade, 'UpgradePage');

export const NewProjectPage = lazyPage(projects, 'NewProjectPage');
export const ProjectPage = lazyPage(projects, 'ProjectPage');
export const ProjectsPage = lazyPage(projects, 'ProjectsPage');

export const TeamSettingsPage = lazyPage(settings, 'TeamSettingsPage');
export const UserSettingsPage = lazyPage(settings, 'UserSettingsPage');
export const Podcast2StatsPage = lazyPage(stats, 'Podcast2StatsPage');
export const TranscriptionsPage = lazyPage(transcriptions, 'TranscriptionsPage');
