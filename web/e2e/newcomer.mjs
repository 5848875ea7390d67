// The README's main command as a newcomer meets it: `podlens demo` (small, on a free
// port) must serve the app itself, with scores, semantic search, transcript search with
// its best passage, and the directory. Run by scripts/newcomer.sh with
// PODLENS_E2E_SUITE=newcomer; expectations come from the server's own API answers.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { api, apiCall, apiKey, assert, baseUrl, screenshots, searchableWord, test, TIMEOUT } from './lib.mjs';

test('the main command serves the web app at /', async (page) => {
  const response = await page.goto(`${baseUrl}/`);
  assert(response?.ok(), `GET / answered ${response?.status()}`);
  assert((await response.headers()['content-type'])?.includes('text/html'), 'GET / is not the app');
  await page.locator('[data-testid="latest-episodes"] > li').first().waitFor({ timeout: TIMEOUT });
  await page.screenshot({ path: join(screenshots, 'newcomer-home.png'), fullPage: true });
});

test('a scored podcast page shows its authority score', async (page) => {
  const latest = await api('/episodes/latest');
  const ids = latest.latestPodcasts.map((group) => group.podcast.slug);
  let podcast = null;
  for (const slug of ids) {
    const details = await api(`/podcasts/${encodeURIComponent(slug)}`);
    if (details.podcast.authorityScore) {
      podcast = details.podcast;
      break;
    }
  }
  assert(podcast, 'no podcast of the demo has an authority score in its details');
  await page.goto(`${baseUrl}/podcasts/${encodeURIComponent(podcast.slug)}`);
  const value = page.getByLabel('Authority score value');
  await value.waitFor({ timeout: TIMEOUT });
  const shown = (await value.textContent())?.trim() ?? '';
  const expected = String(Math.round(podcast.authorityScore.authorityScore));
  assert(shown.startsWith(expected), `the page shows "${shown}", the API says ${expected}`);
  await page.screenshot({ path: join(screenshots, 'newcomer-podcast.png'), fullPage: true });
});

test("a podcast page's cover and audio load from the app itself, with no failed request", async (page) => {
  const latest = await api('/episodes/latest');
  const podcast = latest.latestPodcasts[0].podcast;
  const failed = [];
  page.on('requestfailed', (request) => {
    const error = request.failure()?.errorText;
    // A media element cancels its own range requests once it has what it needs.
    if (!(request.resourceType() === 'media' && error === 'net::ERR_ABORTED')) failed.push(`${request.url()}: ${error}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.url()}: ${response.status()}`);
  });
  await page.goto(`${baseUrl}/podcasts/${encodeURIComponent(podcast.slug)}`);
  const player = page.locator('audio').first();
  await player.waitFor({ timeout: TIMEOUT });
  // The cover: an image of the app's own origin that the browser decoded.
  const cover = page.locator(`img[src="${podcast.imageUrl}"]`).first();
  await cover.waitFor({ timeout: TIMEOUT });
  assert(new URL(podcast.imageUrl).origin === new URL(baseUrl).origin, `the cover is served from ${podcast.imageUrl}, not the app`);
  await page.waitForFunction((src) => [...document.images].some((image) => image.src === src && image.complete && image.naturalWidth > 0), podcast.imageUrl, { timeout: TIMEOUT });
  // The audio: the browser reads the enclosure's length (it plays), and no "Audio unavailable".
  const seconds = await player.evaluate(
    (audio) =>
      new Promise((done, fail) => {
        audio.addEventListener('loadedmetadata', () => done(audio.duration), { once: true });
        audio.addEventListener('error', () => fail(new Error(`audio error ${audio.error?.code} for ${audio.currentSrc}`)), { once: true });
        audio.preload = 'metadata';
        audio.load();
      }),
  );
  assert(seconds > 1, `the enclosure lasts ${seconds} s`);
  assert((await page.locator('.audio-unavailable').count()) === 0, 'a player says "Audio unavailable"');
  assert(failed.length === 0, `requests failed on the podcast page: ${failed.join('; ')}`);
});

test('semantic search answers with hits', async () => {
  assert(apiKey, 'the demo key is needed');
  const latest = await api('/episodes/latest');
  const title = latest.latestPodcasts[0].episodes[0].title;
  const found = await apiCall('POST', '/search/semantic', { body: { query: title, mode: 'episodes', limit: 5 } });
  assert(found.hits.length > 0, `no semantic hits for "${title}"`);
  const podcasts = await apiCall('POST', '/search/semantic', { body: { query: title, mode: 'podcasts', limit: 5 } });
  assert(podcasts.hits.length > 0, `no semantic podcast hits for "${title}"`);
});

test('a transcript search returns the best passage as matchSnippet', async () => {
  const latest = await api('/episodes/latest?hasTranscript=true');
  const episode = latest.latestPodcasts.flatMap((group) => group.episodes).find((item) => item.hasTranscript);
  assert(episode, 'the demo has no episode with a transcript');
  const transcript = await api(`/episodes/${encodeURIComponent(episode.episodeId)}/transcript-text`);
  const word = searchableWord(transcript.episodeTranscriptText.text.slice(0, 2000));
  assert(word, 'no searchable word in the transcript');
  const found = await apiCall('POST', '/search/episodes', {
    body: {
      searchTerms: [{ searchTerm: word, searchType: 'text', searchTargets: ['transcript'] }],
      includeMatchSnippet: true,
    },
  });
  const hits = found.result.hits;
  assert(hits.length > 0, `no transcript hit for "${word}"`);
  const snippet = hits.find((hit) => hit.matchSnippet)?.matchSnippet;
  assert(snippet, 'no hit has a matchSnippet');
  assert(snippet.toLowerCase().includes(`<em>${word.toLowerCase()}`), `matchSnippet does not mark "${word}": ${snippet}`);
});

test('a directory letter lists its podcasts', async (page) => {
  const latest = await api('/episodes/latest');
  const title = latest.latestPodcasts[0].podcast.title;
  const page1 = await api(`/podcasts/directory/${title.trim()[0].toLowerCase().replace(/[^a-z]/, '0')}`);
  const letter = page1.letter;
  assert(page1.podcasts.length > 0, `no podcast under ${letter}`);
  await page.goto(`${baseUrl}/podcasts/directory/${letter}`);
  const items = page.locator('.directory-list > li a');
  await items.first().waitFor({ timeout: TIMEOUT });
  const shown = await items.allTextContents();
  assert(shown[0] === page1.podcasts[0].title, `first "${shown[0]}" is not "${page1.podcasts[0].title}"`);
  await page.screenshot({ path: join(screenshots, 'newcomer-directory.png'), fullPage: true });
});

test('an unknown podcast gets a not-found page with search and the directory to go on', async (page) => {
  const slug = 'no-such-show-in-this-catalog';
  const status = await fetch(`${baseUrl}/api/v1/podcasts/${slug}`).then((response) => response.status);
  assert(status === 404, `the API answers ${status} for an unknown podcast`);
  await page.goto(`${baseUrl}/podcasts/${slug}`);
  await page.getByText('Podcast not found').first().waitFor({ timeout: TIMEOUT });
  assert((await page.getByText('Something went wrong').count()) === 0, 'the page shows an error state');
  const ways = page.getByRole('navigation', { name: 'Where to go from here' });
  assert((await ways.getByRole('link', { name: 'Search podcasts' }).count()) === 1, 'no way on to search');
  assert((await ways.getByRole('link', { name: 'Browse the directory' }).count()) === 1, 'no way on to the directory');
  await page.screenshot({ path: join(screenshots, 'newcomer-podcast-not-found.png'), fullPage: true });
  await ways.getByRole('link', { name: 'Browse the directory' }).click();
  await page.waitForURL(`${baseUrl}/podcasts/directory`, { timeout: TIMEOUT });
});

test('the authority score page shows scored examples and asks for no missing score', async (page) => {
  const failed = [];
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.url()}: ${response.status()}`);
  });
  const latest = await api('/podcasts/latest');
  const scored = latest.podcasts.filter((podcast) => podcast.authorityScore);
  await page.goto(`${baseUrl}/podcast-authority-score`);
  await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: TIMEOUT });
  if (scored.length > 0) {
    const examples = page.getByRole('region', { name: 'Examples from the catalog' });
    await examples.waitFor({ timeout: TIMEOUT });
    const titles = await examples.getByRole('heading', { level: 3 }).allTextContents();
    const expected = scored.slice(0, titles.length).map((podcast) => podcast.title);
    assert(JSON.stringify(titles) === JSON.stringify(expected), `examples ${JSON.stringify(titles)}, scored latest ${JSON.stringify(expected)}`);
  }
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: join(screenshots, 'newcomer-authority-score.png'), fullPage: true });
  assert(failed.length === 0, `requests failed on the authority score page: ${failed.join('; ')}`);
});

test('searching a theme finds shows about it: 4 of the top 5 name it in their own description', async (page) => {
  const manifestPath = process.env.PODLENS_E2E_MANIFEST;
  assert(manifestPath, 'PODLENS_E2E_MANIFEST names the demo corpus manifest');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const shows = new Map();
  for (const podcast of manifest.podcasts) shows.set(podcast.theme, (shows.get(podcast.theme) ?? 0) + 1);
  // The five themes with the most shows (each has at least five to be found).
  const themes = [...shows.entries()].filter(([, count]) => count >= 5).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 5).map(([theme]) => theme);
  assert(themes.length === 5, `fewer than 5 themes with 5 shows: ${JSON.stringify([...shows.entries()])}`);
  for (const theme of themes) {
    const found = await apiCall('POST', '/search/podcasts', {
      body: { searchTerms: [{ searchTerm: theme, searchType: 'text', searchTargets: ['podcast-title', 'podcast-description'] }], pageSize: 5 },
    });
    const top = found.result.hits.slice(0, 5);
    const naming = top.filter((hit) => (hit.podcastRssDescriptionNoHtml ?? hit.podcastRssDescription ?? '').toLowerCase().includes(theme.toLowerCase()));
    assert(naming.length >= 4, `"${theme}": ${naming.length} of the top ${top.length} name it: ${top.map((hit) => hit.podcastRssTitle).join(' | ')}`);
  }
  await page.goto(`${baseUrl}/app/search?q=${encodeURIComponent(themes[0])}`);
  await page.locator('.results-heading').first().waitFor({ timeout: TIMEOUT });
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: join(screenshots, 'newcomer-theme-search.png'), fullPage: true });
});
