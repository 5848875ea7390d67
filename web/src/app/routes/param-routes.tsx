// Route elements that read their URL parameters and hand them to feature screens.

import { useParams } from 'react-router';

import { RequireUser } from '@/components/layouts/require-user';
import { PodcastPage } from '@/features/podcasts/components/podcast-page';
import {
  AlertsPage,
  AppPodcastPage,
  ArticlePage,
  DirectoryLetterPage,
  ErrorPage,
  OutreachDetailPage,
  ProjectGuestProfilePage,
  ProjectPage,
  TeamSettingsPage,
  UserSettingsPage,
} from '../pages';

export function PodcastRoute() {
  const { podcastSlug = '' } = useParams();
  return <PodcastPage key={podcastSlug} slug={podcastSlug} />;
}

export function DirectoryLetterRoute() {
  const { letter = '' } = useParams();
  return <DirectoryLetterPage key={letter} letter={letter} />;
}

export function ArticleRoute() {
  const { slug = '' } = useParams();
  return <ArticlePage slug={slug} />;
}

export function ErrorRoute() {
  const { code = '500' } = useParams();
  return <ErrorPage code={code} />;
}

export function AlertRoute() {
  const { alertId } = useParams();
  return (
    <RequireUser>
      <AlertsPage alertId={alertId} />
    </RequireUser>
  );
}

export function OutreachDetailRoute() {
  const { outreachId = '' } = useParams();
  return (
    <RequireUser>
      <OutreachDetailPage outreachId={outreachId} />
    </RequireUser>
  );
}

export function AppPodcastRoute() {
  const { podcastSlug = '', subPage } = useParams();
  return (
    <RequireUser>
      <AppPodcastPage key={`${podcastSlug}/${subPage ?? ''}`} slug={podcastSlug} subPage={subPage} />
    </RequireUser>
  );
}

export function ProjectRoute() {
  const { slug = '', subPage } = useParams();
  return (
    <RequireUser>
      <ProjectPage slug={slug} subPage={subPage} />
    </RequireUser>
  );
}

export function ProjectGuestProfileRoute() {
  const { slug = '' } = useParams();
  return (
    <RequireUser>
      <ProjectGuestProfilePage key={slug} projectSlug={slug} />
    </RequireUser>
  );
}

export function TeamSettingsRoute() {
  const { section, subSection } = useParams();
  return (
    <RequireUser>
      <TeamSettingsPage section={section} subSection={subSection} />
    </RequireUser>
  );
}

export function UserSettingsRoute() {
  const { section, slug, subSection } = useParams();
  return (
    <RequireUser>
      <UserSettingsPage section={section} slug={slug} subSection={subSection} />
    </RequireUser>
  );
}
