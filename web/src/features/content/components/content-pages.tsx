import { Fragment, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';

import { PageHeader, Section } from '@/components/ui/page-header';
import { EmptyState, NotFoundState } from '@/components/ui/states';
import { links, paths } from '@/config/paths';
import { SUB_SCORES } from '@/features/podcasts/components/authority-score';

import { AuthorityScoreExamples } from './authority-score-examples';

function Page({ title, lead, children }: { title: string; lead?: ReactNode; children: ReactNode }) {
  return (
    <article className="content">
      <PageHeader title={title} lead={lead} />
      {children}
    </article>
  );
}

const CallToAction = () => (
  <p className="cta-row">
    <Link className="button" to={paths.signUp.pattern}>
      Create a free account
    </Link>{' '}
    <Link className="button button-secondary" to={paths.pricing.pattern}>
      See pricing
    </Link>
  </p>
);

export function AboutPage() {
  return (
    <Page title="About Podlens" lead="Open-source podcast search and intelligence.">
      <p>
        Podlens reads public podcast feeds, keeps a catalog of podcasts and episodes, and makes titles, descriptions
        and transcripts searchable. Podcast pages bring together contacts, social profiles, ratings, chart positions,
        related shows and an authority score.
      </p>
      <p>
        It is built for podcast guests and booking agencies, advertisers and marketers, brands and in-house teams,
        researchers, developers using the API, and podcasters.
      </p>
      <p>
        The whole product runs from one data directory on your own machine: <code>podlens ingest</code>,{' '}
        <code>podlens index</code> and <code>podlens serve</code>.
      </p>
      <CallToAction />
    </Page>
  );
}

export function ArticlesPage() {
  return (
    <Page title="Articles" lead="Guides to podcast research, booking and the Podlens API.">
      <ul className="article-list">
        {ARTICLES.map((article) => (
          <li key={article.slug}>
            <Link to={links.article(article.slug)}>{article.title}</Link>
            <p className="muted">{article.summary}</p>
          </li>
        ))}
      </ul>
    </Page>
  );
}

const ARTICLES = [
  {
    slug: 'searching-transcripts',
    title: 'Finding the episode where a topic came up',
    summary: 'Search transcripts, not just titles.',
    body: (
      <>
        <p>
          Titles and show notes describe an episode in a few lines; transcripts hold everything that was said. In{' '}
          <Link to={paths.search.pattern}>Search</Link>, tick <em>Transcript</em> as a place to look for a term: the
          search switches to episodes and every result shows the passage that matched, with the words highlighted.
        </p>
        <p>Use <em>Must match</em> for words that have to appear, <em>Must not match</em> to leave some out, and <em>Exact phrase</em> for names.</p>
      </>
    ),
  },
  {
    slug: 'podcasting-2-0-tags',
    title: 'Which Podcasting 2.0 tags do feeds really use?',
    summary: 'Adoption measured from the feeds in the catalog.',
    body: (
      <p>
        The <Link to={paths.statsPodcast2.pattern}>Podcasting 2.0 adoption page</Link> counts, for every tag of the
        podcast namespace, the share of feeds in the catalog that use it, at podcast and at episode level.
      </p>
    ),
  },
  {
    slug: 'api-quick-start',
    title: 'Podlens API quick start',
    summary: 'Create a key and make your first call.',
    body: (
      <>
        <p>
          Create a key with <code>podlens keys create --data-dir DIR --email you@example.com --plan business</code>, then send it
          in the <code>Authorization</code> header:
        </p>
        <pre>
          <code>curl -H "Authorization: $KEY" http://127.0.0.1:8080/api/v1/episodes/latest</code>
        </pre>
        <p>
          The <Link to={paths.apiDocs.pattern}>API documentation</Link> lists every call.
        </p>
      </>
    ),
  },
];

export function ArticlePage({ slug }: { slug: string }) {
  const article = ARTICLES.find((item) => item.slug === slug);
  if (!article) {
    return (
      <EmptyState title="Article not found">
        <Link to={paths.articles.pattern}>All articles</Link>
      </EmptyState>
    );
  }
  return (
    <Page title={article.title} lead={article.summary}>
      {article.body}
      <p>
        <Link to={paths.articles.pattern}>← All articles</Link>
      </p>
    </Page>
  );
}

export function ForPodcastersPage() {
  return (
    <Page title="For podcasters" lead="See your show the way guests, advertisers and researchers see it.">
      <p>
        Look up your podcast to check what the catalog knows: episodes, transcripts, ratings, chart positions, social
        profiles and your authority score. Everything comes from your public feed and website — keep them up to date and
        Podlens follows.
      </p>
      <p>
        Browse the <Link to={paths.statsPodcast2.pattern}>Podcasting 2.0 adoption stats</Link> to see which tags other
        shows use.
      </p>
      <CallToAction />
    </Page>
  );
}

export function GetStartedPage() {
  return (
    <Page title="Get started" lead="Three steps to your first list of podcasts.">
      <ol className="steps">
        <li>
          <Link to={paths.signUp.pattern}>Create an account</Link> or sign in with an API key.
        </li>
        <li>
          <Link to={paths.search.pattern}>Search</Link> podcasts and episodes by topic, with filters for language, activity and ratings.
        </li>
        <li>
          Add the shows you like to a <Link to={paths.projects.pattern}>project</Link> and track them from prospect to booked.
        </li>
      </ol>
    </Page>
  );
}

export function BookingAgencyPage() {
  return (
    <Page title="For podcast booking agencies" lead="One workspace per client, every show in one place.">
      <p>
        The agency plan gives 50 projects of up to 200 podcasts each, 5000 searches a month, unlimited team members and
        API access. Track each podcast through prospect, qualified, pitched, booked or lost, with priorities and labels.
      </p>
      <CallToAction />
    </Page>
  );
}

export function PrivacyPage() {
  return (
    <Page title="Privacy policy">
      <Section title="What we store">
        <p>
          Your email address, your team, your API keys (stored hashed), your projects and your daily usage counts. The
          podcast catalog is built from public feeds and public websites.
        </p>
      </Section>
      <Section title="In your browser">
        <p>
          When you sign in with an API key, the key is kept in this browser's local storage until you sign out. No
          third-party scripts, fonts or trackers are loaded.
        </p>
      </Section>
      <Section title="Your rights">
        <p>You can ask the operator of this Podlens server to export or delete your account data.</p>
      </Section>
    </Page>
  );
}

export function TermsPage() {
  return (
    <Page title="Terms of service">
      <p>
        Use Podlens within your plan's limits. Contacts and data about podcasts come from public sources; respect the
        podcasters you contact and the laws on unsolicited email where you and they live.
      </p>
      <p>Automated access goes through the API with your own key, not by scraping the web app.</p>
    </Page>
  );
}

export function MediaKitPage() {
  return (
    <Page title="Media kit">
      <p>The Podlens name and the lens mark may be used to refer to the product.</p>
      <p>
        <img src="/favicon.svg" alt="The Podlens mark" width={96} height={96} />
      </p>
    </Page>
  );
}

export function FreePlanBookCallPage() {
  return (
    <Page title="Book a call" lead="Talk to us about the agency plan or a demo.">
      <p>
        Calendar booking links are set up by the operator of this server. Until then, write to the operator, or start
        with the free plan: <Link to={paths.signUp.pattern}>create an account</Link>.
      </p>
    </Page>
  );
}

export function AuthorityScorePage() {
  return (
    <Page title="Podcast authority score" lead="One number from 0 to 100 for how established a podcast is.">
      <p>The final score combines four sub-scores:</p>
      <dl className="definitions">
        {SUB_SCORES.map((part) => (
          <Fragment key={part.key}>
            <dt>{part.label}</dt>
            <dd>{part.measures}</dd>
          </Fragment>
        ))}
      </dl>
      <p>
        A sub-score with no data about the podcast is shown as not measured, never as a zero: it is left out, and the
        measured sub-scores share its weight. Each podcast page shows its score and the breakdown.
      </p>
      <AuthorityScoreExamples />
    </Page>
  );
}

export function SolutionPage({ kind }: { kind: 'podcast-api' | 'apple-podcast-api' | 'podcast-monitoring' | 'download-podcast-transcripts' }) {
  const pages = {
    'podcast-api': {
      title: 'Podcast API',
      lead: 'Search podcasts, episodes and transcripts over HTTP.',
      body: (
        <p>
          The API is compatible with the Pod Engine API: the same paths, parameters and answers, so its Python SDK works
          against Podlens. Read the <Link to={paths.apiDocs.pattern}>documentation</Link>; API access is part of the
          business, agency and admin plans.
        </p>
      ),
    },
    'apple-podcast-api': {
      title: 'Apple Podcast API',
      lead: 'Apple ids, ratings and charts next to every podcast.',
      body: (
        <p>
          Look podcasts up by Apple id with <code>GET /api/v1/podcasts/id/lookup?appleId=…</code>, read Apple ratings
          with <code>/reviews</code> and chart positions with <code>/charts</code>.
        </p>
      ),
    },
    'podcast-monitoring': {
      title: 'Podcast monitoring',
      lead: 'Know when your brand, product or name is mentioned.',
      body: (
        <p>
          Alerts run your searches against new episodes and transcripts. The free plan has 1 alert; business 30;
          agency 100.
        </p>
      ),
    },
    'download-podcast-transcripts': {
      title: 'Download podcast transcripts',
      lead: 'Transcripts as text or WebVTT.',
      body: (
        <p>
          Episodes with a transcript can be downloaded with <code>GET /api/v1/episodes/{'{episodeId}'}/download/transcript?format=txt</code>{' '}
          (txt on individual plans; txt and vtt on business and agency).
        </p>
      ),
    },
  } as const;
  const page = pages[kind];
  return (
    <Page title={page.title} lead={page.lead}>
      {page.body}
      <CallToAction />
    </Page>
  );
}

const ERROR_TITLES: Record<string, string> = {
  '400': 'Bad request',
  '401': 'Please sign in',
  '403': 'Not allowed',
  '404': 'Page not found',
  '429': 'Too many requests',
  '500': 'Something went wrong',
  '503': 'Temporarily unavailable',
};

export function ErrorPage({ code }: { code: string }) {
  const [params] = useSearchParams();
  const message = params.get('message');
  return (
    <Page title={ERROR_TITLES[code] ?? `Error ${code}`}>
      <p className="error-code" aria-label="Error code">
        {code}
      </p>
      {message ? <p role="alert">{message}</p> : null}
      <p>
        <Link to={paths.home.pattern}>Go to the home page</Link>
      </p>
    </Page>
  );
}

export function NotFoundPage() {
  return (
    <Page title="Page not found">
      <NotFoundState title="There is no page at this address">
        <p>The link may be mistyped or out of date. Search the catalog or browse its directory instead.</p>
      </NotFoundState>
    </Page>
  );
}
