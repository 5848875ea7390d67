// End-to-end tests of the web app in Debian's Chromium against a real `podlens serve`.
//
//   PODLENS_E2E_URL=http://127.0.0.1:8080 [PODLENS_E2E_KEY=<api key>] npm run e2e
//
// Screenshots of each main screen go to PODLENS_E2E_SCREENSHOTS (default e2e/screenshots).
// Expectations come from the server's own API answers, never from fixed titles.

import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const baseUrl = process.env.PODLENS_E2E_URL?.replace(/\/$/, '');
const apiKey = process.env.PODLENS_E2E_KEY || null;
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
  await page.getByLabel('API key').fill(apiKey);
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

test('a search returns results with highlighted snippets', async (page) => {
  const latest = await api('/episodes/latest');
  const episode = latest.latestPodcasts.flatMap((group) => group.episodes).find((item) => searchableWord(item.title));
  assert(episode, 'no episode title with a searchable word');
  const word = searchableWord(episode.title);
  if (apiKey) await signIn(page);
  await page.goto(`${baseUrl}/app/search`);
  await page.getByLabel('Search term 1').fill(word);
  await page.getByRole('checkbox', { name: 'Episode title' }).check();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.locator('[data-testid="search-results"] > li').first().waitFor({ timeout: TIMEOUT });
  const marks = await page.locator('[data-testid="search-results"] mark').allTextContents();
  assert(marks.some((mark) => mark.toLowerCase().includes(word.toLowerCase().slice(0, 4))), `no highlight of "${word}" in ${JSON.stringify(marks.slice(0, 5))}`);
  await page.screenshot({ path: join(screenshots, 'search.png'), fullPage: true });
});

test('a transcript search shows the matching passage', async (page) => {
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
