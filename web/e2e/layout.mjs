// Readable on a phone (no sideways scrolling at 390×844) and usable with the keyboard alone.

import {
  api,
  apiCall,
  apiKey,
  assert,
  assertNoHorizontalOverflow,
  baseUrl,
  createProject,
  latestPodcasts,
  searchableWord,
  shot,
  signIn,
  Skip,
  test,
  TIMEOUT,
  unique,
} from './lib.mjs';

const PHONE = { width: 390, height: 844 };

/** Waits for a screen to settle: its heading shown and no loading state left. */
async function settled(page) {
  await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: TIMEOUT });
  await page.locator('.state-loading').first().waitFor({ state: 'detached', timeout: TIMEOUT }).catch(() => {});
  await page.waitForLoadState('networkidle', { timeout: TIMEOUT }).catch(() => {});
}

test('phone width: the public screens fit a 390px wide screen', async (page) => {
  await page.setViewportSize(PHONE);
  const podcast = (await latestPodcasts())[0].podcast;
  const screens = [
    ['/', 'phone-home'],
    [`/podcasts/${encodeURIComponent(podcast.slug)}`, 'phone-podcast'],
    ['/pricing', 'phone-pricing'],
    ['/sign-in', 'phone-sign-in'],
    ['/sign-up', 'phone-sign-up'],
    ['/podcasts/directory', 'phone-directory'],
    ['/stats/podcast-2', 'phone-podcast-2'],
    ['/solutions/podcast-api', 'phone-solution-api'],
    ['/about', 'phone-about'],
  ];
  for (const [path, name] of screens) {
    await page.goto(`${baseUrl}${path}`);
    await settled(page);
    await assertNoHorizontalOverflow(page, path);
    await shot(page, name);
  }
  // The API reference (the server's own page), every operation opened as a reader trying calls.
  await page.goto(`${baseUrl}/api-docs`);
  await page.locator('details').first().waitFor({ timeout: TIMEOUT });
  await page.evaluate(() => document.querySelectorAll('details').forEach((item) => { item.open = true; }));
  await assertNoHorizontalOverflow(page, '/api-docs');
  await shot(page, 'phone-api-docs');
  // The menu opens and its links fit too.
  await page.goto(`${baseUrl}/`);
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).waitFor({ timeout: TIMEOUT });
  await assertNoHorizontalOverflow(page, 'the open menu');
});

test('phone width: the app screens fit a 390px wide screen', async (page) => {
  if (!apiKey) throw new Skip('PODLENS_E2E_KEY is not set: the app screens need a signed-in key');
  await page.setViewportSize(PHONE);
  await signIn(page);
  const groups = await latestPodcasts();
  const episode = groups.flatMap((group) => group.episodes).find((item) => searchableWord(item.title));
  const projects = (await api('/projects')).projects;
  const alerts = (await api('/alerts/alert-configs')).alertConfigs;
  const screens = [
    ['/app', 'phone-dashboard'],
    ['/app/projects', 'phone-projects'],
    ...(projects[0] ? [[`/app/projects/${encodeURIComponent(projects[0].slug)}`, 'phone-project-board']] : []),
    ...(projects[0] ? [[`/app/projects/${encodeURIComponent(projects[0].slug)}/export`, 'phone-project-export']] : []),
    ['/app/charts', 'phone-charts'],
    ['/app/alerts', 'phone-alerts'],
    ...(alerts[0] ? [[`/app/alerts/${encodeURIComponent(alerts[0].id)}`, 'phone-alert']] : []),
    ['/app/outreach', 'phone-outreach'],
    ['/app/guests', 'phone-guests'],
    ['/app/guests/new', 'phone-guest-new'],
    ['/app/transcriptions', 'phone-transcriptions'],
    ['/app/team-settings/team-podcasts', 'phone-team-podcasts'],
    ['/app/team-settings/search-usage', 'phone-team-usage'],
    ['/app/team-settings/developers', 'phone-team-developers'],
    ['/app/team-settings/activity-history', 'phone-team-activity'],
    ['/app/user-settings', 'phone-user-settings'],
    [`/app/podcasts/${encodeURIComponent(groups[0].podcast.slug)}`, 'phone-app-podcast'],
    ['/app/upgrade', 'phone-upgrade'],
  ];
  for (const [path, name] of screens) {
    await page.goto(`${baseUrl}${path}`);
    await settled(page);
    await assertNoHorizontalOverflow(page, path);
    await shot(page, name);
  }
  // The search page with results, the widest screen of all.
  await page.goto(`${baseUrl}/app/search`);
  await page.getByLabel('Search term 1').fill(searchableWord(episode.title));
  await page.getByRole('checkbox', { name: 'Episode title' }).check();
  await page.getByRole('button', { name: 'Filters' }).click();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.locator('[data-testid="search-results"] > li').first().waitFor({ timeout: TIMEOUT });
  await assertNoHorizontalOverflow(page, '/app/search with results and filters');
  await shot(page, 'phone-search');
});

test('laptop width: a project board with a podcast in every column fits a 1366×768 window', async (page) => {
  if (!apiKey) throw new Skip('PODLENS_E2E_KEY is not set: the board needs a signed-in key');
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page);
  const project = await createProject(`Board fit ${unique()}`);
  // One podcast in each status the server counts.
  const states = Object.keys(project.stateCounts);
  const podcasts = (await latestPodcasts()).map((group) => group.podcast).slice(0, states.length);
  for (const [index, podcast] of podcasts.entries()) {
    await apiCall('POST', `/projects/${encodeURIComponent(project.slug)}/podcasts`, { body: { podcastId: podcast.id, state: states[index] } });
  }
  await page.goto(`${baseUrl}/app/projects/${encodeURIComponent(project.slug)}`);
  await page.getByTestId('board-card').nth(podcasts.length - 1).waitFor({ timeout: TIMEOUT });
  await assertNoHorizontalOverflow(page, 'the project board at 1366 px');
  const layout = await page.evaluate(() => {
    const main = document.querySelector('.main');
    const style = getComputedStyle(main);
    const contentRight = main.getBoundingClientRect().right - parseFloat(style.paddingRight);
    const columns = [...document.querySelectorAll('.board-column')].map((column) => ({
      name: column.getAttribute('aria-label'),
      right: column.getBoundingClientRect().right,
    }));
    // Each select against the width its longest option needs (text, padding and ~20 px of arrow).
    const context = document.createElement('canvas').getContext('2d');
    const cramped = [...document.querySelectorAll('.board-controls select')].flatMap((select) => {
      const css = getComputedStyle(select);
      context.font = `${css.fontWeight} ${css.fontSize} ${css.fontFamily}`;
      const text = Math.max(...[...select.options].map((option) => context.measureText(option.text).width));
      const room = select.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight) - 20;
      return room < text ? [`${select.getAttribute('aria-label')} (${Math.round(room)} px for ${Math.round(text)} px)`] : [];
    });
    return { contentRight, columns, cramped };
  });
  const cut = layout.columns.filter((column) => column.right > layout.contentRight + 1);
  assert(layout.columns.length === states.length, `the board shows ${layout.columns.length} columns for ${states.length} statuses`);
  assert(cut.length === 0, `columns cut off at 1366 px: ${cut.map((column) => column.name).join(', ')}`);
  assert(layout.cramped.length === 0, `selects narrower than their longest option: ${layout.cramped.join('; ')}`);
  await shot(page, 'laptop-project-board', { fullPage: false });
  await apiCall('DELETE', `/projects/${encodeURIComponent(project.slug)}`);
});

/** Presses Tab until `target` has the focus; fails after `limit` presses. */
async function tabTo(page, target, what, limit = 40) {
  for (let presses = 0; presses < limit; presses += 1) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === document.activeElement)) return presses + 1;
  }
  throw new Error(`${limit} presses of Tab never reached ${what}`);
}

test('keyboard only: signing in and searching with Tab and Enter', async (page) => {
  if (!apiKey) throw new Skip('PODLENS_E2E_KEY is not set: signing in needs a key');
  // Not from a podcast the team has blacklisted (an earlier scenario blacklists one): the
  // team's searches leave those out.
  const blacklisted = new Set((await api('/teams/podcasts?blacklist=true')).teamPodcasts.map((item) => item.podcastId));
  const episode = (await latestPodcasts())
    .filter((group) => !blacklisted.has(group.podcast.id))
    .flatMap((group) => group.episodes)
    .find((item) => searchableWord(item.title));
  const word = searchableWord(episode.title);

  await page.goto(`${baseUrl}/sign-in`);
  await page.getByRole('textbox', { name: 'API key' }).waitFor({ timeout: TIMEOUT });
  // The first Tab reaches the skip link, which moves the focus to the main content.
  await page.keyboard.press('Tab');
  assert(await page.evaluate(() => document.activeElement?.textContent === 'Skip to content'), 'the first Tab does not reach the skip link');
  await page.keyboard.press('Enter');
  assert(await page.evaluate(() => document.activeElement?.id === 'main'), 'the skip link does not move the focus to the content');
  await tabTo(page, page.getByRole('textbox', { name: 'API key' }), 'the API key field');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert(outline !== 'none', 'the focused field shows no focus outline');
  await page.keyboard.type(apiKey);
  await page.keyboard.press('Enter');
  await page.waitForURL(`${baseUrl}/app`, { timeout: TIMEOUT });

  // Search: Tab to the term, type, Tab to "Search" and press Enter.
  await page.goto(`${baseUrl}/app/search`);
  const term = page.getByLabel('Search term 1');
  await term.waitFor({ timeout: TIMEOUT });
  await tabTo(page, term, 'the search term', 60);
  await page.keyboard.type(word);
  // Space ticks a target checkbox.
  const episodeTitle = page.getByRole('checkbox', { name: 'Episode title' });
  await tabTo(page, episodeTitle, 'the Episode title checkbox');
  if (!(await episodeTitle.isChecked())) await page.keyboard.press('Space');
  assert(await episodeTitle.isChecked(), 'Space did not tick the checkbox');
  await tabTo(page, page.getByRole('button', { name: 'Search', exact: true }), 'the Search button');
  await page.keyboard.press('Enter');
  const results = page.locator('[data-testid="search-results"] > li');
  await results.first().waitFor({ timeout: TIMEOUT });
  const titles = await results.locator('h3').allTextContents();
  assert(titles.some((title) => title.toLowerCase().includes(word.toLowerCase())), `no result title has "${word}": ${JSON.stringify(titles)}`);
  // Enter in the term field submits too.
  await term.focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(word.toLowerCase());
  await page.keyboard.press('Enter');
  await results.first().waitFor({ timeout: TIMEOUT });
  // A result's link is reachable and opens with Enter.
  const link = results.first().locator('a').first();
  const href = await link.getAttribute('href');
  await tabTo(page, link, 'the first result link', 80);
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.pathname === new URL(href, baseUrl).pathname, { timeout: TIMEOUT });
  await shot(page, 'keyboard-result-opened');
});
