// End-to-end tests of the web app in Debian's Chromium against a real `podlens serve`.
//
//   PODLENS_E2E_URL=http://127.0.0.1:8080 [PODLENS_E2E_KEY=<api key>] \
//   [PODLENS_E2E_OUTBOX=<data-dir>/outbox] npm run e2e
//
// The key should be of a plan with projects (business, agency or admin); the outbox is
// where the server writes mail when no SMTP server is configured (sign-up links).
// Screenshots of each main screen go to PODLENS_E2E_SCREENSHOTS (default e2e/screenshots).
// Expectations come from the server's own API answers, never from fixed titles.

import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const baseUrl = process.env.PODLENS_E2E_URL?.replace(/\/$/, '');
const apiKey = process.env.PODLENS_E2E_KEY || null;
const outbox = process.env.PODLENS_E2E_OUTBOX || null;
const here = fileURLToPath(new URL('.', import.meta.url));
const screenshots = resolve(process.env.PODLENS_E2E_SCREENSHOTS ?? join(here, 'screenshots'));
const executablePath = process.env.PODLENS_E2E_CHROMIUM ?? '/usr/bin/chromium';
const TIMEOUT = 20_000;

if (!baseUrl) {
  console.log('e2e: skipped — PODLENS_E2E_URL is not set (start `podlens serve --data-dir DIR --port P` and pass its URL).');
  process.exit(0);
}

async function api(path) {
  const response = await fetch(`${baseUrl}/api/v1${path}`, { headers: apiKey ? { Authorization: apiKey } : {} });
  const body = await response.json().catch(() => null);
  if (!response.ok || body?.status !== 'OK') throw new Error(`GET ${path}: HTTP ${response.status} ${JSON.stringify(body)?.slice(0, 300)}`);
  return body.data;
}

class Skip extends Error {}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

/** A word of a title that a search should find: the longest plain word. */
function searchableWord(title) {
  const words = title.match(/[A-Za-z]{4,}/g) ?? [];
  return words.sort((a, b) => b.length - a.length)[0] ?? null;
}

const tests = [];
const test = (name, run) => tests.push({ name, run });

async function signIn(page) {
  assert(apiKey, 'PODLENS_E2E_KEY is needed for this test');
  await page.goto(`${baseUrl}/sign-in`);
  await page.getByRole('textbox', { name: 'API key' }).fill(apiKey);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(`${baseUrl}/app`, { timeout: TIMEOUT });
}

test('home loads the latest episodes', async (page) => {
  const latest = await api('/episodes/latest');
  const episodes = latest.latestPodcasts.flatMap((group) => group.episodes);
  assert(episodes.length > 0, 'the server has no latest episodes: is the catalog empty?');
  await page.goto(`${baseUrl}/`);
  const rows = page.locator('[data-testid="latest-episodes"] > li');
  await rows.first().waitFor({ timeout: TIMEOUT });
  const titles = await page.locator('[data-testid="latest-episodes"] .episode-title').allTextContents();
  assert(titles.length > 0, 'no episode rows');
  const known = new Set(episodes.map((episode) => episode.title));
  assert(titles.every((title) => known.has(title)), `rows not from the API: ${titles.slice(0, 3).join(' | ')}`);
  await page.screenshot({ path: join(screenshots, 'home.png'), fullPage: true });
});

test('a signed-out search finds an episode by a word of its title', async (page) => {
  const latest = await api('/episodes/latest');
  const episode = latest.latestPodcasts.flatMap((group) => group.episodes).find((item) => searchableWord(item.title));
  assert(episode, 'no episode title with a searchable word');
  const word = searchableWord(episode.title);
  // Signed out: the public tier searches too (with its result cap).
  await page.goto(`${baseUrl}/app/search`);
  await page.getByLabel('Search term 1').fill(word);
  await page.getByRole('checkbox', { name: 'Episode title' }).check();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.locator('[data-testid="search-results"] > li').first().waitFor({ timeout: TIMEOUT });
  const titles = await page.locator('[data-testid="search-results"] > li h3').allTextContents();
  assert(titles.length <= 3, `a signed-out search shows ${titles.length} results, more than the public cap of 3`);
  assert(titles.some((title) => title.toLowerCase().includes(word.toLowerCase())), `no result title has "${word}": ${JSON.stringify(titles)}`);
  await page.screenshot({ path: join(screenshots, 'search.png'), fullPage: true });
});

test('a filtered transcript search shows the matching passage', async (page) => {
  if (!apiKey) throw new Skip('PODLENS_E2E_KEY is not set: transcripts need a signed-in key');
  const latest = await api('/episodes/latest?hasTranscript=true');
  const episode = latest.latestPodcasts.flatMap((group) => group.episodes).find((item) => item.hasTranscript);
  assert(episode, 'no episode with a transcript in the catalog');
  const transcript = await api(`/episodes/${encodeURIComponent(episode.episodeId)}/transcript-text`);
  const word = searchableWord(transcript.episodeTranscriptText.text.slice(0, 2000));
  assert(word, 'the transcript has no searchable word');
  await signIn(page);
  await page.goto(`${baseUrl}/app/search`);
  await page.getByLabel('Search term 1').fill(word);
  await page.getByRole('checkbox', { name: 'Podcast title' }).uncheck();
  await page.getByRole('checkbox', { name: 'Podcast description' }).uncheck();
  await page.getByRole('checkbox', { name: 'Transcript' }).check();
  // A filter: only episodes that have a transcript.
  await page.getByRole('button', { name: 'Filters' }).click();
  await page.getByRole('checkbox', { name: 'Has a transcript' }).check();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const snippet = page.locator('[data-testid="transcript-snippet"]').first();
  await snippet.waitFor({ timeout: TIMEOUT });
  const marked = await snippet.locator('mark').allTextContents();
  assert(marked.length > 0, 'the transcript snippet has no highlight');
  await page.screenshot({ path: join(screenshots, 'search-transcript.png'), fullPage: true });
});

test('a podcast page shows its title and episodes', async (page) => {
  const latest = await api('/episodes/latest');
  const podcast = latest.latestPodcasts[0]?.podcast;
  assert(podcast, 'no podcast to open');
  const details = await api(`/podcasts/${encodeURIComponent(podcast.slug)}`);
  await page.goto(`${baseUrl}/podcasts/${encodeURIComponent(podcast.slug)}`);
  const heading = page.getByRole('heading', { level: 1 });
  await heading.waitFor({ timeout: TIMEOUT });
  const title = (await heading.textContent())?.trim();
  assert(title === details.podcast.title.trim(), `title "${title}" is not "${details.podcast.title}"`);
  await page.locator('[data-testid="podcast-episodes"] > li').first().waitFor({ timeout: TIMEOUT });
  const shown = await page.locator('[data-testid="podcast-episodes"] > li').count();
  assert(shown === Math.min(20, details.podcast.stats.episodeCount) || shown > 0, 'no episodes listed');
  await page.screenshot({ path: join(screenshots, 'podcast.png'), fullPage: true });
});

test('signing out lands on /sign-in with the signed-out message', async (page) => {
  await page.goto(`${baseUrl}/`);
  await page.evaluate(() => window.localStorage.setItem('podlens.apiKey', 'pl_placeholder_key'));
  await page.goto(`${baseUrl}/app/sign-out`);
  await page.waitForURL(/\/sign-in\?message=/, { timeout: TIMEOUT });
  await page.getByText('You have been signed out').waitFor({ timeout: TIMEOUT });
  const stored = await page.evaluate(() => window.localStorage.getItem('podlens.apiKey'));
  assert(stored === null, 'the key is still stored');
  await page.screenshot({ path: join(screenshots, 'signed-out.png') });
});

test('the pricing and Podcasting 2.0 pages render', async (page) => {
  await page.goto(`${baseUrl}/pricing`);
  await page.locator('.limits-table').waitFor({ timeout: TIMEOUT });
  await page.screenshot({ path: join(screenshots, 'pricing.png'), fullPage: true });
  await page.goto(`${baseUrl}/stats/podcast-2`);
  await page.locator('.chart, .state').first().waitFor({ timeout: TIMEOUT });
  await page.screenshot({ path: join(screenshots, 'podcast-2.png'), fullPage: true });
});

/** The newest mail in the outbox sent to `to`, waiting for it to arrive. */
async function newestMailTo(to) {
  const deadline = Date.now() + TIMEOUT;
  while (Date.now() < deadline) {
    let names = [];
    try {
      names = readdirSync(outbox).filter((name) => name.endsWith('.eml')).sort().reverse();
    } catch {
      names = [];
    }
    for (const name of names) {
      const text = readFileSync(join(outbox, name), 'utf8');
      if (text.includes(`To: ${to}\r\n`)) return text;
    }
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`no mail to ${to} in ${outbox}`);
}

test('signing up through the outbox link signs the browser in', async (page) => {
  if (!outbox) throw new Skip('PODLENS_E2E_OUTBOX is not set: the sign-up link is read from the server outbox');
  const email = `e2e-${Date.now()}@example.com`;
  await page.goto(`${baseUrl}/sign-up`);
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await page.waitForURL(/\/sign-up\/validation-email-sent/, { timeout: TIMEOUT });
  await page.screenshot({ path: join(screenshots, 'validation-email-sent.png') });
  const mail = await newestMailTo(email);
  const link = mail.match(/https?:\/\/\S+\/sign-up\/validate\?key=[0-9a-f]{64}\S*/)?.[0];
  assert(link, `no validation link in the mail:\n${mail}`);
  // The link points at this server (it was built from the address the browser used).
  await page.goto(link.replace(/^https?:\/\/[^/]+/, baseUrl));
  await page.waitForURL(/\/onboarding/, { timeout: TIMEOUT });
  const session = await page.evaluate(async () => {
    const response = await fetch('/api/v1/auth/session');
    return response.json();
  });
  assert(session?.data?.email === email, `the session is not ${email}: ${JSON.stringify(session)}`);
  assert(session.data.plan === 'free', `a new account is on the free plan, not ${session.data.plan}`);
  await page.screenshot({ path: join(screenshots, 'onboarding.png'), fullPage: true });
  // The same link cannot be used twice.
  const again = await page.evaluate(async (key) => {
    const response = await fetch('/api/v1/auth/validate', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Podlens-Client': 'web' }, body: JSON.stringify({ key }) });
    return response.status;
  }, new URL(link).searchParams.get('key'));
  assert(again === 400, `a used link answered ${again}`);
});

test('a project gets a podcast from search and moves it to pitched', async (page) => {
  if (!apiKey) throw new Skip('PODLENS_E2E_KEY is not set: projects need a signed-in key');
  const latest = await api('/episodes/latest');
  const podcast = latest.latestPodcasts.map((group) => group.podcast).find((item) => searchableWord(item.title));
  assert(podcast, 'no podcast title with a searchable word');
  await signIn(page);
  const name = `Pitch list ${Date.now() % 1_000_000}`;
  await page.goto(`${baseUrl}/app/lists/new`);
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('button', { name: 'Create project', exact: true }).click();
  await page.waitForURL(/\/app\/projects\/[^/]+/, { timeout: TIMEOUT });
  const slug = decodeURIComponent(new URL(page.url()).pathname.split('/')[3]);

  await page.goto(`${baseUrl}/app/search?selectedProjectSlug=${encodeURIComponent(slug)}`);
  await page.getByLabel('Search term 1').fill(searchableWord(podcast.title));
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const first = page.locator('[data-testid="search-results"] > li').first();
  await first.waitFor({ timeout: TIMEOUT });
  await first.getByRole('button', { name: 'Add to project' }).click();
  await first.getByRole('status').filter({ hasText: 'Added' }).waitFor({ timeout: TIMEOUT });

  const listed = await api(`/projects/${encodeURIComponent(slug)}/podcasts/details`);
  assert(listed.listedPodcasts.length === 1, `the project holds ${listed.listedPodcasts.length} podcasts`);
  const added = listed.listedPodcasts[0];
  const title = added.podcast.titleLatest ?? added.podcast.titleOriginal;
  assert(added.status === 'prospect', `a new listed podcast is a prospect, not ${added.status}`);

  await page.goto(`${baseUrl}/app/projects/${encodeURIComponent(slug)}`);
  const status = page.getByLabel(`Status of ${title}`);
  await status.waitFor({ timeout: TIMEOUT });
  await status.selectOption('pitched');
  const deadline = Date.now() + TIMEOUT;
  let now = null;
  while (Date.now() < deadline) {
    now = (await api(`/projects/${encodeURIComponent(slug)}/podcasts/details`)).listedPodcasts[0]?.status;
    if (now === 'pitched') break;
    await new Promise((done) => setTimeout(done, 200));
  }
  assert(now === 'pitched', `the server has the podcast as ${now}, not pitched`);
  await page.reload();
  await page.getByLabel(`Status of ${title}`).waitFor({ timeout: TIMEOUT });
  assert((await page.getByLabel(`Status of ${title}`).inputValue()) === 'pitched', 'the board does not show pitched after a reload');
  await page.screenshot({ path: join(screenshots, 'project-board.png'), fullPage: true });
});

test('the charts page renders its chart', async (page) => {
  if (!apiKey) throw new Skip('PODLENS_E2E_KEY is not set: charts are for signed-in users');
  await signIn(page);
  await page.goto(`${baseUrl}/app/charts`);
  await page.locator('[data-testid="chart-positions"] > li, [data-testid="chart-positions"] tr').first().waitFor({ timeout: TIMEOUT });
  await page.screenshot({ path: join(screenshots, 'charts.png'), fullPage: true });
});

async function main() {
  mkdirSync(screenshots, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), 'podlens-e2e-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 900 },
  });
  let failed = 0;
  let skipped = 0;
  try {
    for (const { name, run } of tests) {
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (error) => errors.push(error.message));
      const started = Date.now();
      try {
        await page.goto(`${baseUrl}/about`);
        await page.evaluate(() => window.localStorage.clear());
        await run(page);
        assert(errors.length === 0, `page errors: ${errors.join('; ')}`);
        console.log(`ok   ${name} (${Date.now() - started} ms)`);
      } catch (error) {
        if (error instanceof Skip) {
          skipped += 1;
          console.log(`skip ${name}: ${error.message}`);
          continue;
        }
        failed += 1;
        console.log(`FAIL ${name}: ${error instanceof Error ? error.message : error}`);
        await page.screenshot({ path: join(screenshots, `failed-${tests.findIndex((t) => t.name === name)}.png`), fullPage: true }).catch(() => {});
      } finally {
        await page.close();
        await context.clearCookies();
      }
    }
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
  console.log(`e2e: ${tests.length - failed - skipped} passed, ${failed} failed, ${skipped} skipped; screenshots in ${screenshots}`);
  process.exit(failed === 0 ? 0 : 1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
