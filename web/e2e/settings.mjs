// Team and user settings (API keys, team podcasts, usage, request history, profile) and
// the sub-pages of a podcast in the app.

import {
  api,
  apiCall,
  apiKey,
  apiStatus,
  assert,
  baseUrl,
  createProject,
  eventually,
  latestPodcasts,
  newestMailTo,
  outbox,
  requireRoute,
  searchableWord,
  shot,
  signIn,
  signInByEmailLink,
  Skip,
  test,
  TIMEOUT,
  unique,
} from './lib.mjs';

test('API keys: a new key is shown once and works, and a revoked key stops at once', async (page) => {
  // Keys are made from a signed-in session, never with a key.
  await signInByEmailLink(page);
  await page.goto(`${baseUrl}/app/team-settings/developers`);
  await page.getByRole('button', { name: 'Create API key' }).click();
  const shown = page.getByRole('textbox', { name: 'New API key' });
  await shown.waitFor({ timeout: TIMEOUT });
  const created = await shown.inputValue();
  assert(created.length >= 20 && created !== apiKey, 'no new key shown');
  assert((await apiStatus('/teams/api-keys', created)) === 200, 'the new key is not accepted by the server');
  const summary = (await api('/teams/api-keys')).apiKeys.find((item) => created.startsWith(item.prefix) && !item.revokedAt);
  assert(summary, 'the server does not list the new key by its prefix');
  assert(!JSON.stringify(await api('/teams/api-keys')).includes(created), 'the server lists the key itself');
  await shot(page, 'api-key-created');

  await page.getByRole('button', { name: 'I have saved the key' }).click();
  await shown.waitFor({ state: 'detached', timeout: TIMEOUT });
  const table = page.getByRole('table', { name: 'API keys' });
  await table.getByText(`${summary.prefix}…`, { exact: true }).waitFor({ timeout: TIMEOUT });
  await page.reload();
  await table.getByText(`${summary.prefix}…`, { exact: true }).waitFor({ timeout: TIMEOUT });
  const html = await page.content();
  assert(!html.includes(created), 'the key is still on the page after it was dismissed');

  // Revoke asks first; "Cancel" sends nothing.
  await page.getByRole('button', { name: `Revoke ${summary.prefix}…` }).click();
  const confirm = page.getByRole('group', { name: `Confirm revoking ${summary.prefix}…` });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  assert((await apiStatus('/teams/api-keys', created)) === 200, 'cancelling revoked the key');
  await page.getByRole('button', { name: `Revoke ${summary.prefix}…` }).click();
  await confirm.getByRole('button', { name: 'Revoke key' }).click();
  // The row then says so, with the revocation date.
  await table.getByRole('row').filter({ hasText: `${summary.prefix}…` }).getByText('Revoked').waitFor({ timeout: TIMEOUT });
  assert((await apiStatus('/teams/api-keys', created)) === 401, 'the revoked key is still accepted');
  const revoked = (await api('/teams/api-keys')).apiKeys.find((item) => item.keyId === summary.keyId);
  assert(revoked?.revokedAt, 'the server does not list the key as revoked');
  await page.reload();
  await table.getByRole('row').filter({ hasText: `${summary.prefix}…` }).getByText('Revoked').waitFor({ timeout: TIMEOUT });
  await shot(page, 'team-developers');
});

/** Saves a podcast the team does not have yet from its page, as a user would; returns the team's podcasts. */
async function saveTeamPodcastFromItsPage(page) {
  const have = new Set((await api('/teams/podcasts')).teamPodcasts.map((item) => item.podcastId));
  const podcast = (await latestPodcasts()).map((group) => group.podcast).find((item) => !have.has(item.id));
  assert(podcast, 'every podcast of the catalog is already a team podcast');
  await page.goto(`${baseUrl}/app/podcasts/${encodeURIComponent(podcast.slug)}`);
  await page.getByRole('button', { name: 'Save to team podcasts' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved to team podcasts' }).waitFor({ timeout: TIMEOUT });
  const podcasts = (await api('/teams/podcasts')).teamPodcasts;
  const saved = podcasts.find((item) => item.podcastId === podcast.id);
  assert(saved?.addedReason === 'add-to-team-podcasts-button', `the server has ${JSON.stringify(saved)?.slice(0, 200)}`);
  return podcasts;
}

test('team settings: team podcasts with their flags, the blacklist, usage and request history', async (page) => {
  await signIn(page);
  const podcasts = await saveTeamPodcastFromItsPage(page);
  await page.goto(`${baseUrl}/app/team-settings/team-podcasts`);
  const rows = page.locator('[data-testid="team-podcast"]');
  await rows.first().waitFor({ timeout: TIMEOUT });
  assert((await rows.count()) === podcasts.length, `${await rows.count()} rows shown, the server has ${podcasts.length}`);
  const titles = await rows.locator('a').allTextContents();
  assert(
    podcasts.every((item) => titles.includes(item.podcast.titleLatest)),
    `titles differ: ${titles.slice(0, 3)} vs ${podcasts.slice(0, 3).map((item) => item.podcast.titleLatest)}`,
  );
  await page.getByText(`${podcasts.length} of ${podcasts.length} podcasts`).waitFor({ timeout: TIMEOUT });

  // Sync on, then blacklisted: the server keeps both flags and the blacklist section lists it.
  const target = podcasts[0];
  const title = target.podcast.titleLatest;
  const flags = async () => (await api('/teams/podcasts')).teamPodcasts.find((item) => item.podcastId === target.podcastId);
  await page.getByRole('checkbox', { name: `Sync ${title}` }).click();
  assert(await eventually(async () => ((await flags())?.sync === !target.sync ? true : null)), 'the sync flag was not stored');
  await page.getByRole('checkbox', { name: `Blacklist ${title}` }).waitFor({ timeout: TIMEOUT });
  await eventually(() => page.getByRole('checkbox', { name: `Blacklist ${title}` }).isEnabled());
  await page.getByRole('checkbox', { name: `Blacklist ${title}` }).click();
  assert(await eventually(async () => ((await flags())?.blacklist ? true : null)), 'the blacklist flag was not stored');
  await shot(page, 'team-podcasts');
  await page.getByRole('link', { name: 'Podcast blacklist' }).click();
  await page.getByRole('heading', { name: 'Podcast blacklist' }).waitFor({ timeout: TIMEOUT });
  const blacklisted = (await api('/teams/podcasts?blacklist=true')).teamPodcasts;
  // The team podcasts' rows stay on screen until the blacklist's own list has loaded.
  await page.getByText(`${blacklisted.length} of ${blacklisted.length} podcasts`).waitFor({ timeout: TIMEOUT });
  await page.locator('[data-testid="team-podcast"] a', { hasText: title }).first().waitFor({ timeout: TIMEOUT });
  assert((await rows.count()) === blacklisted.length, `the blacklist shows ${await rows.count()}, the server has ${blacklisted.length}`);
  await page.getByRole('checkbox', { name: `Blacklist ${title}` }).click();
  assert(await eventually(async () => ((await flags())?.blacklist === false ? true : null)), 'the blacklist flag was not cleared');
  await page.getByText('No blacklisted podcasts').waitFor({ timeout: TIMEOUT });

  // Usage by member: one row per member with the server's totals.
  await page.getByRole('link', { name: 'Search usage' }).click();
  const usage = page.getByRole('table', { name: 'Usage by member' });
  await usage.waitFor({ timeout: TIMEOUT });
  const members = (await api('/teams/usage/members?window=30')).members;
  const bodyRows = usage.locator('tbody tr');
  assert((await bodyRows.count()) === members.length, `${await bodyRows.count()} member rows, the server has ${members.length}`);
  for (const member of members) {
    const row = bodyRows.filter({ hasText: member.displayName ?? member.email ?? member.userId });
    const total = (await row.locator('td').last().textContent())?.replace(/[^\d]/g, '');
    assert(Number(total) === member.totalUsage, `${member.email}: total ${total}, the server says ${member.totalUsage}`);
  }
  await shot(page, 'team-search-usage');

  // Request history: the team's requests, with the server's count.
  await page.getByRole('link', { name: 'Activity history' }).click();
  const history = await api('/teams/request-history?limit=25&requestType=transcription');
  if (history.requests.length === 0) {
    await page.getByText('No requests of this kind yet').waitFor({ timeout: TIMEOUT });
  } else {
    const items = page.getByRole('list', { name: 'Team requests' }).locator('li');
    await items.first().waitFor({ timeout: TIMEOUT });
    assert((await items.count()) === history.requests.length, `${await items.count()} requests shown, the server has ${history.requests.length}`);
    const first = await items.first().textContent();
    assert(first.includes(history.requests[0].podcastTitle), `the newest request is not ${history.requests[0].podcastTitle}: ${first}`);
    await page.getByText(`1–${history.requests.length} of ${history.totalRequests}`).waitFor({ timeout: TIMEOUT });
  }
  await shot(page, 'team-activity-history');

  // Members.
  await page.getByRole('link', { name: 'Team', exact: true }).first().click();
  const users = (await api('/teams/users')).users;
  for (const user of users) await page.getByText(user.email).first().waitFor({ timeout: TIMEOUT });
  await shot(page, 'team-members');
});

test('user settings: the profile is the signed-in account and the templates are the server\'s', async (page) => {
  const session = await api('/auth/session');
  const templates = (await api('/outreach/templates')).templates;
  await signIn(page);
  await page.goto(`${baseUrl}/app/user-settings`);
  await page.getByText(session.email, { exact: true }).waitFor({ timeout: TIMEOUT });
  await page.getByText(`API key ending …${apiKey.slice(-4)}`).waitFor({ timeout: TIMEOUT });
  await page.getByText(session.plan.toLowerCase(), { exact: true }).first().waitFor({ timeout: TIMEOUT });
  await shot(page, 'user-settings');
  await page.getByRole('link', { name: 'Outreach templates' }).click();
  const list = page.getByRole('list', { name: 'Outreach templates' });
  await list.waitFor({ timeout: TIMEOUT });
  const names = await list.locator('h3').allTextContents();
  assert(JSON.stringify(names) === JSON.stringify(templates.map((item) => item.name)), `templates ${names} differ from the server's ${templates.map((item) => item.name)}`);

  // A template of one's own: created in the form, kept by the server, used to write an email, deleted.
  const name = `Pitch ${unique()}`;
  await page.getByRole('button', { name: 'New template' }).click();
  const form = page.getByRole('form', { name: 'New outreach template' });
  await form.getByLabel('Name').fill(`  ${name}  `);
  await form.getByLabel('Email text').fill('Hello [Host First Name], a guest idea for [Podcast Name].');
  await form.getByRole('button', { name: 'Create template' }).click();
  await list.getByRole('heading', { name }).waitFor({ timeout: TIMEOUT });
  const stored = (await api('/outreach/templates')).templates.find((item) => item.name === name);
  assert(stored && !stored.builtIn && stored.description === null && stored.ownerUserId === session.userId, `the server keeps ${JSON.stringify(stored)}`);
  const podcast = (await latestPodcasts())[0].podcast;
  const email = (await apiCall('POST', '/outreach/generate', { body: { podcastId: podcast.id, outreachTemplateId: stored.id } })).outreach;
  assert(email.body.startsWith('Hello ') && email.body.includes('a guest idea for ') && !email.body.includes('['), `the email is not written from the template: ${email.body}`);
  await shot(page, 'outreach-template-created');
  await list.getByRole('button', { name: `Delete ${name}` }).click();
  await page.getByRole('group', { name: `Confirm: delete ${name}` }).getByRole('button', { name: 'Delete template' }).click();
  await list.getByRole('heading', { name }).waitFor({ state: 'detached', timeout: TIMEOUT });
  assert(!(await api('/outreach/templates')).templates.some((item) => item.id === stored.id), 'the deleted template is still listed');

  await list.getByRole('link', { name: templates[0].name }).click();
  await page.waitForURL(new RegExp(`/app/user-settings/outreach-templates/${templates[0].id}$`), { timeout: TIMEOUT });
  assert(await eventually(async () => (await list.locator(':scope > li').count()) === 1), 'one template page lists more than one');
});

test('podcast sub-pages: episodes, contacts, reviews, charts, socials and related', async (page) => {
  const groups = await latestPodcasts();
  // The podcast with the most episodes in the catalog's latest list.
  const podcast = [...groups].sort((a, b) => b.episodes.length - a.episodes.length)[0].podcast;
  const slug = encodeURIComponent(podcast.slug);
  const details = (await api(`/podcasts/${slug}`)).podcast;
  await signIn(page);
  const open = async (subPage, label) => {
    await page.goto(`${baseUrl}/app/podcasts/${slug}${subPage ? `/${subPage}` : ''}`);
    await page.getByRole('heading', { level: 1, name: details.title.trim() }).waitFor({ timeout: TIMEOUT });
    const tab = page.getByRole('navigation', { name: 'Podcast' }).getByRole('link', { name: label, exact: true });
    assert((await tab.getAttribute('aria-current')) === 'page', `the ${label} tab is not the current one`);
    await page.locator('.state-loading').first().waitFor({ state: 'detached', timeout: TIMEOUT }).catch(() => {});
    assert((await page.getByText('Something went wrong').count()) === 0, `${label}: an error is shown`);
  };

  await open('', 'Overview');
  await shot(page, 'app-podcast');

  await open('episodes', 'Episodes');
  const episodes = (await api(`/podcasts/${slug}/episodes`)).podcastWithEpisodes.episodes;
  await page.locator('[data-testid="podcast-episodes"] > li').first().waitFor({ timeout: TIMEOUT });
  const rows = await page.locator('[data-testid="podcast-episodes"] > li').count();
  assert(rows === Math.min(episodes.length, rows) && rows > 0, `${rows} episodes shown`);
  const firstTitle = await page.locator('[data-testid="podcast-episodes"] > li').first().textContent();
  assert(firstTitle.includes(episodes[0].title), `the first episode is not ${episodes[0].title}`);
  assert((await page.getByRole('heading', { level: 2, name: 'Contacts' }).count()) === 0, 'a sub-page shows other sections');

  await open('contacts', 'Contacts');
  const contacts = (await api(`/podcasts/${slug}/contacts`)).podcastContacts;
  const emails = new Set([...contacts.emails.map((item) => item.email), ...(details.primaryContactEmail ? [details.primaryContactEmail] : [])]);
  for (const email of emails) await page.getByRole('link', { name: email }).first().waitFor({ timeout: TIMEOUT });
  if (emails.size === 0 && contacts.phoneNumbers.length === 0 && contacts.websites.length === 0) await page.getByText('No contacts found').waitFor({ timeout: TIMEOUT });
  await shot(page, 'app-podcast-contacts');

  await open('reviews', 'Reviews');
  await page.getByRole('heading', { level: 2, name: 'Reviews' }).waitFor({ timeout: TIMEOUT });
  await open('charts', 'Charts');
  await page.getByRole('heading', { level: 2, name: 'Chart history' }).waitFor({ timeout: TIMEOUT });

  await open('socials', 'Socials');
  const links = page.getByRole('region', { name: 'Socials' }).locator('.link-row a');
  assert((await links.count()) === details.socialMediaLinks.length, `${await links.count()} social links, the server has ${details.socialMediaLinks.length}`);

  await open('related', 'Related');
  const related = (await api(`/podcasts/${slug}/related-podcasts`)).relatedPodcasts.similarPodcasts;
  if (related.length === 0) await page.getByText('No related podcasts found').waitFor({ timeout: TIMEOUT });
  else {
    await page.locator('.podcast-card').first().waitFor({ timeout: TIMEOUT });
    const shownTitles = await page.locator('.podcast-card-title').allTextContents();
    assert(JSON.stringify(shownTitles) === JSON.stringify(related.map((item) => item.title)), `related ${shownTitles} differ from ${related.map((item) => item.title)}`);
  }
  await shot(page, 'app-podcast-related');

  // An episode of the podcast under the same address.
  await page.goto(`${baseUrl}/app/podcasts/${slug}/${encodeURIComponent(episodes[0].episodeSlug)}`);
  await page.getByRole('heading', { level: 1, name: episodes[0].title }).waitFor({ timeout: TIMEOUT });
  await page.getByRole('heading', { level: 2, name: 'Transcript' }).waitFor({ timeout: TIMEOUT });
  await shot(page, 'app-episode');
});

test('custom prompts: create, refuse a short name, edit and delete', async (page) => {
  await requireRoute('/teams/custom-prompts', 'custom prompts');
  await signIn(page);
  await page.goto(`${baseUrl}/app/team-settings/custom-prompts`);
  await page.getByRole('button', { name: 'New custom prompt' }).click();
  const form = page.getByRole('form', { name: 'New custom prompt' });
  await form.getByLabel('Name', { exact: true }).fill('ab');
  await form.getByLabel('Prompt', { exact: true }).fill('List the guests of this episode and what they said about open data.');
  await form.getByRole('button', { name: 'Create prompt' }).click();
  await form.getByText('Custom prompt name must be between 3 and 100 characters').waitFor({ timeout: TIMEOUT });
  // The server says the same of the same name.
  const refused = await apiCall('POST', '/teams/custom-prompts', { body: { name: 'ab', contextType: 'episode', prompt: 'x' } }).catch((error) => error);
  assert(refused.status === 400 && refused.body?.data?.message === 'Custom prompt name must be between 3 and 100 characters', `the server answered ${refused.status} ${JSON.stringify(refused.body)}`);

  const name = `Guests of ${unique()}`;
  await form.getByLabel('Name', { exact: true }).fill(name);
  await form.getByLabel('Runs on').selectOption('episode');
  await form.getByRole('button', { name: 'Create prompt' }).click();
  const list = page.getByRole('list', { name: 'Custom prompts' });
  await list.getByRole('heading', { name, level: 3 }).waitFor({ timeout: TIMEOUT });
  const stored = (await api('/teams/custom-prompts')).customPrompts.find((item) => item.name === name);
  assert(stored?.contextType === 'episode' && stored.description === null, `the server has ${JSON.stringify(stored)}`);
  await shot(page, 'team-custom-prompts');

  await list.getByRole('button', { name: `Edit ${name}` }).click();
  const edit = page.getByRole('form', { name: 'Edit custom prompt' });
  await edit.getByLabel('Description (optional)').fill('For the booking team');
  await edit.getByRole('button', { name: 'Save prompt' }).click();
  await list.getByText('For the booking team').waitFor({ timeout: TIMEOUT });
  const edited = (await api(`/teams/custom-prompts/${encodeURIComponent(stored.id)}`)).customPrompt;
  assert(edited.description === 'For the booking team', `the server has the description ${edited.description}`);

  await list.getByRole('button', { name: `Delete ${name}` }).click();
  await page.getByRole('button', { name: 'Delete prompt' }).click();
  await list.getByRole('heading', { name, level: 3 }).waitFor({ state: 'detached', timeout: TIMEOUT }).catch(() => {});
  const gone = await eventually(async () => ((await api('/teams/custom-prompts')).customPrompts.every((item) => item.id !== stored.id) ? true : null));
  assert(gone, 'the server still lists the deleted prompt');
});

test('integrations: a webhook is added with its secret shown once, and deleted', async (page) => {
  await requireRoute('/teams/webhooks', 'webhooks');
  await signIn(page);
  await page.goto(`${baseUrl}/app/team-settings/integrations`);
  const form = page.getByRole('form', { name: 'Add a webhook' });
  await form.getByLabel('Endpoint URL').fill('ftp://hooks.example.com/x');
  await form.getByRole('button', { name: 'Add webhook' }).click();
  await form.getByText('The URL must start with http:// or https://').waitFor({ timeout: TIMEOUT });
  const url = `https://hooks.example.com/podlens-${unique()}`;
  await form.getByLabel('Endpoint URL').fill(url);
  await form.getByRole('button', { name: 'Add webhook' }).click();
  const secretBox = page.getByRole('textbox', { name: 'Signing secret' });
  await secretBox.waitFor({ timeout: TIMEOUT });
  const secret = await secretBox.inputValue();
  assert(secret.length >= 16, 'no secret shown');
  const listed = (await api('/teams/webhooks')).webhooks.find((item) => item.url === url);
  assert(listed, 'the server does not list the new webhook');
  assert(!JSON.stringify(await api('/teams/webhooks')).includes(secret), 'the server lists the secret');
  const table = page.getByRole('table', { name: 'Webhooks' });
  await table.getByRole('rowheader', { name: url }).waitFor({ timeout: TIMEOUT });
  await shot(page, 'team-integrations');
  await page.getByRole('button', { name: 'I have saved the secret' }).click();
  await secretBox.waitFor({ state: 'detached', timeout: TIMEOUT });
  await page.reload();
  await table.getByRole('rowheader', { name: url }).waitFor({ timeout: TIMEOUT });
  assert(!(await page.content()).includes(secret), 'the secret is still on the page');
  await table.getByRole('button', { name: `Deliveries to ${url}` }).click();
  await page.getByText('Nothing delivered yet').waitFor({ timeout: TIMEOUT });

  await table.getByRole('button', { name: `Delete ${url}` }).click();
  await table.getByRole('button', { name: 'Delete webhook' }).click();
  await table.getByRole('rowheader', { name: url }).waitFor({ state: 'detached', timeout: TIMEOUT });
  assert((await api('/teams/webhooks')).webhooks.every((item) => item.webhookId !== listed.webhookId), 'the server still lists the deleted webhook');
});

test('preferences: saved on the server, and the search page opens with them', async (page) => {
  await requireRoute('/users/preferences', 'user preferences');
  const before = (await api('/users/preferences')).preferences;
  try {
    await preferencesScenario(page, before);
  } finally {
    // Back to what it was, for the other scenarios.
    await apiCall('PUT', '/users/preferences', { body: before });
  }
});

async function preferencesScenario(page, before) {
  await signIn(page);
  await page.goto(`${baseUrl}/app/user-settings`);
  const form = page.getByRole('form', { name: 'Preferences' });
  await form.waitFor({ timeout: TIMEOUT });
  await form.getByRole('radio', { name: 'Table' }).check();
  await form.getByRole('button', { name: 'Choose filters' }).click();
  // Languages are picked from the catalog's own values once they are read.
  const languages = form.getByRole('combobox', { name: 'Languages' });
  await languages.waitFor({ timeout: TIMEOUT });
  await languages.selectOption('en');
  await form.getByRole('button', { name: 'Add to Languages' }).click();
  await form.getByRole('checkbox', { name: 'Socials' }).check();
  await form.getByRole('button', { name: 'Save preferences' }).click();
  await page.getByRole('status').filter({ hasText: 'Preferences saved.' }).waitFor({ timeout: TIMEOUT });
  const saved = (await api('/users/preferences')).preferences;
  assert(saved.search?.defaultResultsView === 'table', `the server has the view ${saved.search?.defaultResultsView}`);
  assert(JSON.stringify(saved.search?.defaultSearchFilters) === JSON.stringify({ languages: ['en'] }), `the server has the filters ${JSON.stringify(saved.search?.defaultSearchFilters)}`);
  assert(saved.search?.export?.columnsToNotExport?.includes('socials'), 'the server does not leave socials out of exports');
  assert(JSON.stringify(saved.projects?.favoriteProjectIds ?? []) === JSON.stringify(before.projects?.favoriteProjectIds ?? []), 'the favourites changed');
  await shot(page, 'user-preferences');

  await page.goto(`${baseUrl}/app/search`);
  const view = page.getByRole('group', { name: 'Results view' });
  await view.waitFor({ timeout: TIMEOUT });
  assert((await view.getByRole('button', { name: 'Table' }).getAttribute('aria-pressed')) === 'true', 'the search page does not open in the table view');
  const chosen = page.getByRole('list', { name: 'Languages chosen' });
  await chosen.waitFor({ timeout: TIMEOUT });
  assert(/\(en\)/.test(await chosen.textContent()), 'the saved language filter is not applied');
  const requests = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/v1/search/')) requests.push(request.postDataJSON());
  });
  const word = searchableWord((await latestPodcasts())[0].podcast.title);
  await page.getByLabel('Search term 1').fill(word);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  // Results in the table view, or the empty state if no English podcast has the word.
  await page.locator('main table, main .state-empty').first().waitFor({ timeout: TIMEOUT });
  assert(requests.length > 0 && JSON.stringify(requests[0].languages) === '["en"]', `the search did not send the saved filter: ${JSON.stringify(requests[0])}`);
  await shot(page, 'search-with-preferences');
}

test('team members: the owner invites by email, the link signs the new member into the team, the owner removes them', async (page) => {
  await requireRoute('/teams/invitations', 'team invitations');
  if (!outbox) throw new Skip('PODLENS_E2E_OUTBOX is not set: the invitation link is read from the server outbox');
  const owner = await api('/auth/session');
  // A project of the owner's team (the plan caps projects; earlier scenarios made some).
  const project = (await api('/projects')).projects[0] ?? (await createProject(`Members tour ${unique()}`));
  const email = `member-${unique()}@example.com`;

  await signIn(page);
  await page.goto(`${baseUrl}/app/team-settings/team`);
  const form = page.getByRole('form', { name: 'Invite a member' });
  await form.waitFor({ timeout: TIMEOUT });
  await form.getByLabel('Email address').fill(email);
  await form.getByLabel('Role').selectOption('member');
  await form.getByRole('button', { name: 'Send invitation' }).click();
  await page.getByRole('status').filter({ hasText: `Invitation sent to ${email}` }).waitFor({ timeout: TIMEOUT });
  await page.getByRole('list', { name: 'Pending invitations' }).getByText(email).first().waitFor({ timeout: TIMEOUT });
  const pending = (await api('/teams/invitations')).invitations.find((item) => item.email === email);
  assert(pending?.role === 'member', `the server does not list the invitation: ${JSON.stringify(pending)}`);
  await shot(page, 'team-members-invited');

  const mail = await newestMailTo(email);
  const link = mail.match(/https?:\/\/\S+\/team-invite\?key=[0-9a-f]{64}/)?.[0];
  assert(link, `no invitation link in the mail:\n${mail}`);
  // Opened by the invited person: the browser is signed in as them, in the owner's team.
  await page.goto(link.replace(/^https?:\/\/[^/]+/, baseUrl));
  await page.waitForURL(`${baseUrl}/app`, { timeout: TIMEOUT });
  const session = await page.evaluate(async () => (await fetch('/api/v1/auth/session')).json());
  assert(session?.data?.email === email, `the session is not ${email}: ${JSON.stringify(session)}`);
  assert(session.data.teamId === owner.teamId, `the member is in team ${session.data.teamId}, not ${owner.teamId}`);
  await page.goto(`${baseUrl}/app/projects`);
  await page.getByText(project.name).first().waitFor({ timeout: TIMEOUT });
  await page.goto(`${baseUrl}/app/team-settings/team`);
  await page.getByText('The team’s owner and admins invite and manage members.').waitFor({ timeout: TIMEOUT });
  assert((await page.getByRole('form', { name: 'Invite a member' }).count()) === 0, 'a plain member sees the invite form');
  await shot(page, 'team-members-as-member');
  const member = (await api('/teams/users')).users.find((user) => user.email === email);
  assert(member?.role === 'member', `the server does not list the member: ${JSON.stringify(member)}`);

  // The owner removes them: gone from the list and from the server.
  await signIn(page);
  await page.goto(`${baseUrl}/app/team-settings/team`);
  const row = page.getByTestId('team-member').filter({ hasText: email });
  await row.waitFor({ timeout: TIMEOUT });
  await row.getByRole('button', { name: /^Remove / }).click();
  await row.getByRole('button', { name: 'Remove from the team' }).click();
  await row.waitFor({ state: 'detached', timeout: TIMEOUT });
  assert(!(await api('/teams/users')).users.some((user) => user.email === email), 'the server still lists the removed member');
});
