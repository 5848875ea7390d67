// The signed-in workflows: projects (pins, priorities, labels, history, export), alerts,
// outreach emails, guest profiles and transcription requests.

import { readFileSync } from 'node:fs';

import {
  api,
  apiCall,
  assert,
  baseUrl,
  createProject,
  eventually,
  latestPodcasts,
  searchableWord,
  shot,
  signIn,
  test,
  TIMEOUT,
  unique,
} from './lib.mjs';

/** The listed podcasts of a project as the server has them. */
const listed = async (slug) => (await api(`/projects/${encodeURIComponent(slug)}/podcasts/details`)).listedPodcasts;

/** Minimal CSV reading (quoted fields with "" escapes), enough to check an export. */
function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((value) => value !== ''));
}

test('projects: a pin moves a project first, and it stays pinned after a reload', async (page) => {
  await signIn(page);
  const older = await createProject(`Pinned list ${unique()}`);
  const newer = await createProject(`Other list ${unique()}`);
  // The server orders ACTIVE projects newest first: the older one comes after the newer.
  const order = (await api('/projects')).projects.map((project) => project.projectId);
  assert(order.indexOf(newer.projectId) < order.indexOf(older.projectId), `the newer project is not listed first: ${order}`);

  await page.goto(`${baseUrl}/app/projects`);
  const cards = page.locator('[data-testid="project-card"] h2');
  await cards.first().waitFor({ timeout: TIMEOUT });
  const olderName = (await api(`/projects/${encodeURIComponent(older.slug)}/details`)).project.name;
  const names = await cards.allTextContents();
  assert(names.indexOf(olderName) > 0, `"${olderName}" is already first before pinning: ${names}`);

  await page.getByRole('button', { name: `Pin ${olderName}` }).click();
  await page.getByRole('button', { name: `Unpin ${olderName}` }).waitFor({ timeout: TIMEOUT });
  const first = await eventually(async () => ((await cards.first().textContent()) === olderName ? true : null));
  assert(first, `the pinned project is not first: ${await cards.allTextContents()}`);
  // The server puts pinned ids first too (GET /projects?pinnedIds=).
  const pinnedOrder = (await api(`/projects?pinnedIds=${encodeURIComponent(older.projectId)}`)).projects.map((project) => project.projectId);
  assert(pinnedOrder[0] === older.projectId, 'the server does not list the pinned project first');

  // The pin is the user's favourite project in the server preferences (when the server has them).
  const preferences = await api('/users/preferences').catch(() => null);
  const favourites = !preferences || await eventually(async () => {
    const ids = (await api('/users/preferences')).preferences.projects?.favoriteProjectIds ?? [];
    return ids.includes(older.projectId) ? ids : null;
  });
  assert(favourites, 'the pin is not among the favourite projects of the server preferences');
  await page.evaluate(() => window.localStorage.removeItem('podlens.pinnedProjects'));
  await page.reload();
  await cards.first().waitFor({ timeout: TIMEOUT });
  assert((await cards.first().textContent()) === olderName, 'the pin did not survive a reload');
  assert((await page.getByRole('button', { name: `Unpin ${olderName}` }).getAttribute('aria-pressed')) === 'true', 'the pin button is not pressed');
  await shot(page, 'projects');
  // Unpinned, it goes back behind the newer project.
  await page.getByRole('button', { name: `Unpin ${olderName}` }).click();
  const back = await eventually(async () => ((await cards.first().textContent()) !== olderName ? true : null));
  assert(back, 'unpinning did not move the project back');
  const unpinned = !preferences || await eventually(async () => (((await api('/users/preferences')).preferences.projects?.favoriteProjectIds ?? []).includes(older.projectId) ? null : true));
  assert(unpinned, 'the server preferences still hold the unpinned project');
  // The plan caps projects and other scenarios create theirs: these two go.
  for (const made of [older, newer]) await apiCall('DELETE', `/projects/${encodeURIComponent(made.slug)}`);
});

test('projects: priority, labels, the priority filter, per-podcast history and a CSV export', async (page) => {
  const group = (await latestPodcasts()).find((item) => item.podcast.title.trim());
  assert(group, 'no podcast to list');
  const project = await createProject(`Board list ${unique()}`);
  await apiCall('POST', `/projects/${encodeURIComponent(project.slug)}/podcasts`, { body: { podcastId: group.podcast.id, state: 'prospect' } });
  const [item] = await listed(project.slug);
  const title = item.podcast.titleLatest ?? item.podcast.titleOriginal;
  await signIn(page);
  await page.goto(`${baseUrl}/app/projects/${encodeURIComponent(project.slug)}`);

  // Priority: the select sends it, the server stores it, the card shows its badge.
  const priority = page.getByLabel(`Priority of ${title}`);
  await priority.waitFor({ timeout: TIMEOUT });
  await priority.selectOption('high');
  const stored = await eventually(async () => ((await listed(project.slug))[0].priority === 'high' ? true : null));
  assert(stored, 'the server did not store the priority');
  await page.locator('[data-testid="board-card"] .badge.priority-high').waitFor({ timeout: TIMEOUT });

  // A label.
  // A click; the box shows the label at once, before the server has answered.
  await page.getByRole('checkbox', { name: `Label guest-appearance on ${title}` }).click();
  assert(await eventually(() => page.getByRole('checkbox', { name: `Label guest-appearance on ${title}` }).isChecked(), 2000), 'the label is not shown as set');
  const labelled = await eventually(async () => ((await listed(project.slug))[0].labels.includes('guest-appearance') ? true : null));
  assert(labelled, 'the server did not store the label');
  await page.reload();
  await page.getByLabel(`Priority of ${title}`).waitFor({ timeout: TIMEOUT });
  assert(await page.getByRole('checkbox', { name: `Label guest-appearance on ${title}` }).isChecked(), 'the label is not checked after a reload');
  assert(!(await page.getByRole('checkbox', { name: `Label mcp on ${title}` }).isChecked()), 'a label the podcast lacks is checked');

  // The priority filter: another priority shows the empty state, `high` shows the card.
  const filter = page.getByRole('combobox', { name: 'Priority', exact: true });
  await filter.selectOption('urgent');
  await page.getByText('No podcasts with this priority').waitFor({ timeout: TIMEOUT });
  const urgent = await api(`/projects/${encodeURIComponent(project.slug)}/podcasts/details?priorities=urgent`);
  assert(urgent.listedPodcasts.length === 0, 'the server has urgent podcasts the board does not show');
  await filter.selectOption('high');
  await page.locator('[data-testid="board-card"]').first().waitFor({ timeout: TIMEOUT });
  assert((await page.locator('[data-testid="board-card"]').count()) === 1, 'the high filter does not show exactly the one podcast');
  await filter.selectOption('');

  // The podcast's own history: every change the server recorded, newest first.
  const history = (await listed(project.slug))[0].activityHistory ?? [];
  assert(history.some((entry) => entry.actionType === 'update-priority' && entry.toValue === 'high'), `no priority change in the history: ${JSON.stringify(history)}`);
  await page.getByRole('button', { name: `History (${history.length})` }).click();
  const lines = page.getByRole('list', { name: `History of ${title}` }).locator('li');
  await lines.first().waitFor({ timeout: TIMEOUT });
  assert((await lines.count()) === history.length, `the history shows ${await lines.count()} lines, the server has ${history.length}`);
  const texts = await lines.allTextContents();
  assert(texts.some((text) => text.includes(`changed the priority of ${title}: none → high`)), `no priority line: ${texts.join(' | ')}`);
  assert(texts.some((text) => text.includes(`added ${title}`)), `no "added" line: ${texts.join(' | ')}`);
  await shot(page, 'project-board-history');

  // The activity tab lists the same events.
  await page.getByRole('link', { name: 'Activity', exact: true }).click();
  const activity = page.getByRole('list', { name: 'Project activity' }).locator('li');
  await activity.first().waitFor({ timeout: TIMEOUT });
  assert((await activity.count()) === history.length, 'the activity tab does not list every change');

  // Export: a CSV file that holds the podcast.
  await page.getByRole('link', { name: 'Export', exact: true }).click();
  const form = page.getByRole('form', { name: 'Export podcasts' });
  await form.waitFor({ timeout: TIMEOUT });
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: TIMEOUT }), form.getByRole('button', { name: 'Export' }).click()]);
  assert(download.suggestedFilename() === `${project.slug}.csv`, `the file is named ${download.suggestedFilename()}`);
  const csv = parseCsv(readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, ''));
  assert(csv.length === 2, `the export has ${csv.length - 1} podcast rows, not 1:\n${csv.map((row) => row.join(',')).join('\n')}`);
  const [header, row] = csv;
  assert(header.length === row.length, `the header has ${header.length} columns, the row ${row.length}`);
  assert(row.some((value) => value.trim() === title.trim()), `the row does not hold "${title}": ${row.join(' | ')}`);
  assert(header.some((name) => /title/i.test(name)), `no title column: ${header.join(', ')}`);
  await page.getByRole('status').filter({ hasText: 'Export downloaded.' }).waitFor({ timeout: TIMEOUT });
  await shot(page, 'project-export');
  // The plan caps projects and other scenarios create theirs: this one goes.
  await apiCall('DELETE', `/projects/${encodeURIComponent(project.slug)}`);
});

test('projects: the suggestions page finds a podcast by the project keyword and adds it to the list', async (page) => {
  const group = (await latestPodcasts()).find((item) => searchableWord(item.podcast.title));
  assert(group, 'no podcast with a searchable title');
  const word = searchableWord(group.podcast.title).toLowerCase();
  const created = await apiCall('PUT', '/projects', {
    body: { name: `Suggest ${unique()}`, projectTypes: ['guest-booking'], projectKeywords: [word] },
  });
  const slug = created.project.slug;
  await signIn(page);
  await page.goto(`${baseUrl}/app/projects/${encodeURIComponent(slug)}/suggestions`);
  await page.getByRole('button', { name: 'Suggest podcasts' }).click();
  const list = page.getByRole('list', { name: 'Suggested podcasts' });
  await list.waitFor({ timeout: TIMEOUT });
  await page.getByText(`Searched for: ${word}`, { exact: false }).waitFor({ timeout: TIMEOUT });
  const title = group.podcast.title.trim();
  const button = list.getByRole('button', { name: `Add ${title} to the list` });
  await button.waitFor({ timeout: TIMEOUT });
  await shot(page, 'project-suggestions');
  await button.click();
  await list.getByText('Added', { exact: true }).waitFor({ timeout: TIMEOUT });
  const onList = await eventually(async () => (await listed(slug)).find((item) => item.podcast.podcastId === group.podcast.id) ?? null);
  assert(onList, 'the suggested podcast is not on the list');
  assert(onList.labels.includes('automated'), `labels ${onList.labels}`);
  // Asked again, a listed podcast is no longer suggested.
  const again = page.waitForResponse((response) => response.url().endsWith('/api/v1/agent/') && response.request().method() === 'POST');
  await page.getByRole('button', { name: 'Suggest again' }).click();
  assert((await again).ok(), 'the second suggestion request failed');
  await page.getByRole('button', { name: 'Suggest again' }).waitFor({ timeout: TIMEOUT });
  const shown = await eventually(async () => (await list.getByRole('link', { name: title, exact: true }).count()) === 0);
  assert(shown, 'a listed podcast is suggested again');
  // The plan caps projects and other scenarios create theirs: this one goes.
  await apiCall('DELETE', `/projects/${encodeURIComponent(slug)}`);
});

test('alerts: create one, edit it, and see its matches', async (page) => {
  const episodes = (await latestPodcasts()).flatMap((group) => group.episodes);
  const episode = episodes.find((item) => searchableWord(item.title));
  assert(episode, 'no episode title with a searchable word');
  const word = searchableWord(episode.title);
  await signIn(page);
  await page.goto(`${baseUrl}/app/alerts`);
  await page.getByRole('button', { name: 'New alert' }).click();
  const form = page.getByRole('form', { name: 'New alert' });
  const name = `Mentions of ${word} ${unique()}`;
  await form.getByLabel('Alert name').fill(name);
  await form.getByLabel('Alert type').selectOption('custom-keyword');
  await form.getByLabel('Name or keyword to find').fill(word);
  await form.getByRole('checkbox', { name: 'Leave out advertisements' }).uncheck();
  await form.getByRole('button', { name: 'Create alert' }).click();
  await page.waitForURL(/\/app\/alerts\/[^/]+$/, { timeout: TIMEOUT });
  const alertId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop());
  const created = (await api(`/alerts/alert-config/${encodeURIComponent(alertId)}`)).alertConfig;
  assert(created.alertName === name && created.alertType === 'custom-keyword', `the server has ${JSON.stringify(created).slice(0, 200)}`);
  await page.getByRole('heading', { name, level: 2 }).waitFor({ timeout: TIMEOUT });

  // The first run matches existing episodes in the background and records its date when done;
  // then the page shows what the server has.
  const ran = await eventually(async () => ((await api(`/alerts/alert-config/${encodeURIComponent(alertId)}`)).alertConfig.lastRunDate ? true : null));
  assert(ran, 'the first run of the alert did not finish');
  const all = (await api(`/alerts/matches?alertConfigId=${encodeURIComponent(alertId)}&pageSize=100`)).matches;
  assert(all.some((match) => match.episode.id === episode.episodeId), `the alert for "${word}" did not match "${episode.title}", which has it in its title`);
  const matches = (await api(`/alerts/matches?alertConfigId=${encodeURIComponent(alertId)}`)).matches;
  await page.reload();
  const shown = page.getByRole('list', { name: 'Alert matches' }).locator(':scope > li');
  await shown.first().waitFor({ timeout: TIMEOUT });
  const headings = await shown.locator('h3').allTextContents();
  const expected = matches.map((match) => match.episode.title ?? match.episode.slug);
  assert(headings.length === expected.length, `${headings.length} matches shown, the server has ${expected.length}`);
  assert(headings.every((title, index) => title === expected[index]), `matches differ: ${headings.slice(0, 3)} vs ${expected.slice(0, 3)}`);
  await shot(page, 'alert-matches');

  // Edit: a new name and frequency, saved and shown.
  await page.getByRole('button', { name: 'Edit alert' }).click();
  const edit = page.getByRole('form', { name: 'Edit alert' });
  await edit.waitFor({ timeout: TIMEOUT });
  assert((await edit.getByLabel('Name or keyword to find').inputValue()) === word, 'the edit form does not show the stored keyword');
  const renamed = `${name} (weekly)`;
  await edit.getByLabel('Alert name').fill(renamed);
  await edit.getByLabel('E-mail frequency').selectOption('weekly');
  await edit.getByRole('button', { name: 'Save alert' }).click();
  await page.getByRole('status').filter({ hasText: 'Alert saved.' }).waitFor({ timeout: TIMEOUT });
  await page.getByRole('heading', { name: renamed, level: 2 }).waitFor({ timeout: TIMEOUT });
  const saved = (await api(`/alerts/alert-config/${encodeURIComponent(alertId)}`)).alertConfig;
  assert(saved.alertName === renamed, `the server has the name ${saved.alertName}`);
  assert(saved.emailSettings.frequency === 'weekly', `the server has the frequency ${saved.emailSettings.frequency}`);

  await page.goto(`${baseUrl}/app/alerts`);
  await page.getByRole('link', { name: renamed }).waitFor({ timeout: TIMEOUT });
  await shot(page, 'alerts');
});

test('outreach: a generated email shows its subject and body and joins the history', async (page) => {
  const group = (await latestPodcasts()).find((item) => item.podcast.title.trim());
  assert(group, 'no podcast to write to');
  const before = (await api('/outreach/history')).outreachHistory.length;
  await signIn(page);
  await page.goto(`${baseUrl}/app/outreach/new?podcast-id=${encodeURIComponent(group.podcast.id)}`);
  const form = page.getByRole('form', { name: 'Write an outreach email' });
  await form.waitFor({ timeout: TIMEOUT });
  // The podcast of the address is named by its title, never by its id.
  await form.getByText(group.podcast.title.trim(), { exact: true }).first().waitFor({ timeout: TIMEOUT });
  assert(!(await form.textContent()).includes(group.podcast.id), 'the form shows the podcast id');
  const guest = `Ada Example ${unique()}`;
  await form.getByLabel('Guest name').fill(guest);
  await form.getByLabel('Topics to discuss (one a line)').fill('Open data\nPodcast search');
  await form.getByRole('button', { name: 'Generate email' }).click();
  const email = page.getByRole('article', { name: 'Outreach email' });
  await email.waitFor({ timeout: TIMEOUT });
  const subject = (await email.getByRole('heading', { level: 2 }).textContent())?.trim();
  const body = await email.getByLabel('Email body').textContent();
  assert(subject, 'no subject');
  assert(body && body.length > 40, `the body is too short: ${body}`);
  assert(body.includes(guest), `the body does not name the guest ${guest}`);
  // Addressed to the show when it has a contact, ready to open in a mail program.
  await email.getByRole('button', { name: "Show the show's contact address" }).click();
  const open = email.getByRole('link', { name: 'Open in your email app' });
  await open.or(email.getByText('No contact address is known for this show')).first().waitFor({ timeout: TIMEOUT });
  if ((await open.count()) > 0) {
    const href = await open.getAttribute('href');
    assert(/^mailto:[^?]+@[^?]+\?subject=.+&body=.+/.test(href ?? ''), `the mail link is ${href}`);
  }

  const history = (await api('/outreach/history')).outreachHistory;
  assert(history.length === before + 1, `the history holds ${history.length} emails, not ${before + 1}`);
  const stored = history.find((item) => item.subject === subject);
  assert(stored, `"${subject}" is not in the server's history`);
  const details = (await api(`/outreach/${encodeURIComponent(stored.id)}/details`)).outreach;
  assert(details.body === body, 'the body shown is not the one stored');
  // The history below the generator lists it (the earlier emails to this podcast).
  await page.getByRole('list', { name: 'Outreach history' }).getByRole('link', { name: subject }).first().waitFor({ timeout: TIMEOUT });
  await shot(page, 'outreach-generated');

  // The outreach page's history, and the stored email's own page.
  await page.goto(`${baseUrl}/app/outreach`);
  const link = page.getByRole('list', { name: 'Outreach history' }).getByRole('link', { name: subject }).first();
  await link.waitFor({ timeout: TIMEOUT });
  await link.click();
  await page.waitForURL(new RegExp(`/app/outreach/${stored.id}`), { timeout: TIMEOUT });
  await page.getByRole('heading', { name: subject, level: 2 }).waitFor({ timeout: TIMEOUT });
  assert((await page.getByLabel('Email body').textContent()) === details.body, 'the stored email page shows another body');
  await shot(page, 'outreach');
});

test('guest profiles: the new-guest form checks its fields and opens the profile', async (page) => {
  await signIn(page);
  await page.goto(`${baseUrl}/app/guests/new`);
  await page.getByRole('button', { name: 'Create guest profile' }).click();
  // The spec's messages for the required fields (SPEC §5).
  await page.getByText('First name is required', { exact: true }).waitFor({ timeout: TIMEOUT });
  await page.getByText('Short bio is required. The more detailed the better so our AI will work better.').waitFor({ timeout: TIMEOUT });
  const focused = await page.evaluate(() => document.activeElement?.id);
  assert(focused === 'guest-firstName', `the first invalid field is not focused but ${focused}`);

  const last = `Tester${unique()}`;
  await page.getByLabel('First name').fill('Grace');
  await page.getByLabel('Last name').fill(last);
  await page.getByLabel('Short bio').fill('Engineer who builds open podcast search tools and speaks about public data.');
  await page.getByLabel('Goals').fill('Reach podcast listeners interested in open data');
  await page.getByLabel('Expertise').fill('Search engines, open data');
  await page.getByLabel('Topics to discuss').fill('How podcast search works');
  await page.getByLabel('Company name (optional)').fill('Example Labs');
  await page.getByRole('button', { name: 'Create guest profile' }).click();
  await page.waitForURL(/\/app\/projects\/[^/]+\/guest-profile$/, { timeout: TIMEOUT });
  const projectSlug = decodeURIComponent(new URL(page.url()).pathname.split('/')[3]);
  const profile = await api(`/guest-profiles/${encodeURIComponent(projectSlug)}`);
  await page.getByRole('heading', { level: 1, name: profile.name }).waitFor({ timeout: TIMEOUT });
  assert(profile.name.includes(last), `the server's profile is named ${profile.name}`);
  assert(profile.companyName === 'Example Labs', `the server's company is ${profile.companyName}`);
  if (profile.guestBio) {
    await page.getByText(profile.guestBio.shortBio, { exact: true }).waitFor({ timeout: TIMEOUT });
  }
  await shot(page, 'guest-profile');

  // The guests page lists the profiles the server links to projects.
  const linked = (await api('/projects')).projects.find((project) => project.slug === projectSlug)?.linkedGuestProfile;
  await page.goto(`${baseUrl}/app/guests`);
  assert(linked, `the server lists project ${projectSlug} without its linkedGuestProfile`);
  assert(linked.name === profile.name, `the project links ${linked.name}, not ${profile.name}`);
  await page
    .getByRole('list', { name: 'Guest profiles' })
    .getByRole('link', { name: profile.name, exact: true })
    .waitFor({ timeout: TIMEOUT });
  await shot(page, 'guests');
});

test('transcriptions: a transcript requested from an episode page is listed', async (page) => {
  const groups = await latestPodcasts();
  const episode = groups.flatMap((group) => group.episodes).find((item) => !item.hasTranscript);
  assert(episode, 'every episode already has a transcript');
  await signIn(page);
  await page.goto(`${baseUrl}/app/podcasts/${encodeURIComponent(episode.podcastSlug)}/${encodeURIComponent(episode.episodeSlug)}`);
  await page.getByRole('heading', { level: 1, name: episode.title }).waitFor({ timeout: TIMEOUT });
  await page.getByRole('button', { name: 'Request a transcript' }).click();
  await page.getByRole('status').filter({ hasText: 'Transcription requested' }).waitFor({ timeout: TIMEOUT });

  const requests = (await api('/teams/transcriptions?limit=100')).requests;
  const request = requests.find((item) => item.episodeId === episode.episodeId);
  assert(request, `the server has no request for ${episode.episodeId}`);
  await page.goto(`${baseUrl}/app/transcriptions`);
  const row = page.getByRole('row').filter({ hasText: episode.title });
  await row.first().waitFor({ timeout: TIMEOUT });
  const cells = await row.first().getByRole('cell').allTextContents();
  assert(cells[1]?.trim() === request.podcastTitle.trim(), `the podcast cell is ${cells[1]}, not ${request.podcastTitle}`);
  // Processing may move on while the page loads: the cell is the state of the read before or after it.
  const statusOf = (item) => (item.completedAt ? 'completed' : item.failureReason ? `failed: ${item.failureReason}` : 'not_started');
  const after = (await api('/teams/transcriptions?limit=100')).requests.find((item) => item.episodeId === episode.episodeId);
  assert([statusOf(request), statusOf(after)].includes(cells[3]), `the status cell says "${cells[3]}", the server "${statusOf(request)}" then "${statusOf(after)}"`);
  assert((await page.getByRole('row').count()) - 1 === requests.length, 'the table does not list every request');
  await shot(page, 'transcriptions');
});
