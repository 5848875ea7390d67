import { Suspense, useState } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';

import { Spinner } from '@/components/ui/states';
import { useAuth } from '@/features/auth/use-auth';
import { paths } from '@/config/paths';

const PUBLIC_NAV = [
  { to: paths.podcasts.pattern, label: 'Podcasts' },
  { to: paths.statsPodcast2.pattern, label: 'Podcasting 2.0' },
  { to: paths.apiDocs.pattern, label: 'API' },
  { to: paths.pricing.pattern, label: 'Pricing' },
];

const APP_NAV = [
  { to: paths.dashboard.pattern, label: 'Dashboard', end: true },
  { to: paths.search.pattern, label: 'Search' },
  { to: paths.projects.pattern, label: 'Projects' },
  { to: paths.charts.pattern, label: 'Charts' },
  { to: paths.alerts.pattern, label: 'Alerts' },
  { to: paths.outreach.pattern, label: 'Outreach' },
  { to: paths.guests.pattern, label: 'Guests' },
  { to: paths.transcriptions.pattern, label: 'Transcriptions' },
  { to: paths.teamSettings.pattern, label: 'Team' },
  { to: paths.userSettings.pattern, label: 'Profile' },
];

/** What the page area shows while a page's code is on its way (shown after a short delay). */
function PageLoading() {
  return (
    <div className="page-loading">
      <Spinner label="Loading page…" />
    </div>
  );
}

/** Header, navigation and footer around every screen; app screens add a side menu. */
export function SiteLayout() {
  const { signedIn, tier } = useAuth();
  const location = useLocation();
  const inApp = location.pathname.startsWith('/app');
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <div className="site">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <Link to={paths.home.pattern} className="brand" aria-label="Podlens home">
          <span className="brand-mark" aria-hidden="true" />
          Podlens
        </Link>
        <button type="button" className="menu-button" aria-expanded={menuOpen} aria-controls="site-nav" onClick={() => setMenuOpen(!menuOpen)}>
          Menu
        </button>
        <nav id="site-nav" className={`site-nav${menuOpen ? ' open' : ''}`} aria-label="Main" onClick={() => setMenuOpen(false)}>
          {PUBLIC_NAV.map((item) => (
            <NavLink key={item.to} to={item.to}>
              {item.label}
            </NavLink>
          ))}
          {signedIn ? (
            <>
              <NavLink to={paths.dashboard.pattern} end>
                App <span className="plan-badge">{tier}</span>
              </NavLink>
              <NavLink to={paths.signOut.pattern}>Sign out</NavLink>
            </>
          ) : (
            <>
              <NavLink to={paths.signIn.pattern}>Sign in</NavLink>
              <Link className="button button-small" to={paths.signUp.pattern}>
                Sign up
              </Link>
            </>
          )}
        </nav>
      </header>
      <div className={inApp ? 'app-shell' : 'page-shell'}>
        {inApp ? (
          <nav className="app-nav" aria-label="Application">
            {APP_NAV.map((item) => (
              <NavLink key={item.to} to={item.to} end={item.end}>
                {item.label}
              </NavLink>
            ))}
          </nav>
        ) : null}
        <main id="main" className="main" tabIndex={-1}>
          {/* A page's code loads when it is first shown; moving between pages keeps the
              current page on screen until the next one is ready. */}
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
      <footer className="site-footer">
        <nav aria-label="Footer">
          <Link to={paths.about.pattern}>About</Link>
          <Link to={paths.articles.pattern}>Articles</Link>
          <Link to={paths.directory.pattern}>Directory</Link>
          <Link to={paths.authorityScore.pattern}>Authority score</Link>
          <Link to={paths.solutionPodcastApi.pattern}>Podcast API</Link>
          <Link to={paths.solutionMonitoring.pattern}>Monitoring</Link>
          <Link to={paths.solutionTranscripts.pattern}>Transcripts</Link>
          <Link to={paths.forPodcasters.pattern}>For podcasters</Link>
          <Link to={paths.bookingAgency.pattern}>Booking agencies</Link>
          <Link to={paths.apiStatus.pattern}>API status</Link>
          <Link to={paths.privacy.pattern}>Privacy</Link>
          <Link to={paths.terms.pattern}>Terms</Link>
        </nav>
        <p className="muted">Podlens — open-source podcast search and intelligence.</p>
      </footer>
    </div>
  );
}
