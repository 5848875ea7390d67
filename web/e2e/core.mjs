// The first scenarios: public pages, signing up and in, search, a project board and charts.

import { api, apiKey, assert, baseUrl, newestMailTo, outbox, screenshots, searchableWord, signIn, Skip, test, TIMEOUT } from './lib.mjs';
import { join } from 'node:path';

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

  await page.goto(`${baseUrl}/app/search?selected-project-slug=${encodeURIComponent(slug)}`);
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
