// What every scenario file shares: the server under test, its API (for expectations the
// tests derive from the server's own answers, never from fixed titles), assertions and the
// list of tests `run.mjs` runs in order.

import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const baseUrl = process.env.PODLENS_E2E_URL?.replace(/\/$/, '');
export const apiKey = process.env.PODLENS_E2E_KEY || null;
export const outbox = process.env.PODLENS_E2E_OUTBOX || null;
const here = fileURLToPath(new URL('.', import.meta.url));
export const screenshots = resolve(process.env.PODLENS_E2E_SCREENSHOTS ?? join(here, 'screenshots'));
export const TIMEOUT = 20_000;

/** An answer of the API that was not OK. */
export class ApiError extends Error {
  constructor(method, path, status, body) {
    super(`${method} ${path}: HTTP ${status} ${JSON.stringify(body)?.slice(0, 300)}`);
    this.status = status;
    this.body = body;
  }
}

/** A call to the API with the test key (or `key`), the envelope's data returned. */
export async function apiCall(method, path, { body, key = apiKey } = {}) {
  const headers = { Accept: 'application/json' };
  if (key) headers.Authorization = key;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${baseUrl}/api/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = await response.json().catch(() => null);
  if (!response.ok || answer?.status !== 'OK') throw new ApiError(method, path, response.status, answer);
  return answer.data;
}

export const api = (path, options) => apiCall('GET', path, options);

/** The HTTP status the API answers `path` with for `key`. */
export async function apiStatus(path, key) {
  const response = await fetch(`${baseUrl}/api/v1${path}`, { headers: key ? { Authorization: key } : {} });
  return response.status;
}

export class Skip extends Error {}

/** Skips the scenario when this server does not have the route (404 "Route not found"). */
export async function requireRoute(path, feature) {
  const response = await fetch(`${baseUrl}/api/v1${path}`, { headers: apiKey ? { Authorization: apiKey } : {} });
  const body = await response.json().catch(() => null);
  if (response.status === 404 && body?.data?.message === 'Route not found') throw new Skip(`this server has no ${feature} (${path})`);
}

export function assert(condition, message) {
  if (!condition) throw new Error(message);
}

export const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** Polls `probe` until it returns a truthy value (returned) or the timeout passes (null). */
export async function eventually(probe, timeout = TIMEOUT) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) return null;
    await sleep(200);
  }
}

/** A word of a title that a search should find: the longest plain word. */
export function searchableWord(title) {
  const words = title.match(/[A-Za-z]{4,}/g) ?? [];
  return words.sort((a, b) => b.length - a.length)[0] ?? null;
}

/** A short unique suffix for names a test creates. */
export const unique = () => `${Date.now() % 1_000_000}${Math.floor(Math.random() * 10)}`;

export const tests = [];
export const test = (name, run) => tests.push({ name, run });

export const shot = (page, name, options = { fullPage: true }) => page.screenshot({ path: join(screenshots, `${name}.png`), ...options });

/** Signs in with the test key on /sign-in, as a user would. */
export async function signIn(page) {
  if (!apiKey) throw new Skip('PODLENS_E2E_KEY is not set: this screen needs a signed-in key');
  await page.goto(`${baseUrl}/sign-in`);
  await page.getByRole('textbox', { name: 'API key' }).fill(apiKey);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(`${baseUrl}/app`, { timeout: TIMEOUT });
}

/** Signs in as the test key's user by a mailed sign-in link (a browser session, which
 * API keys are created from: a key cannot create keys), as a user would. */
export async function signInByEmailLink(page) {
  if (!apiKey) throw new Skip('PODLENS_E2E_KEY is not set: this screen needs a signed-in user');
  if (!outbox) throw new Skip('PODLENS_E2E_OUTBOX is not set: a sign-in link is read from the outbox');
  const { email } = await api('/auth/session');
  await page.goto(`${baseUrl}/sign-in`);
  const status = await page.evaluate(async (address) => {
    const response = await fetch('/api/v1/auth/sign-in', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Podlens-Client': 'web' },
      body: JSON.stringify({ email: address }),
    });
    return response.status;
  }, email);
  if (status !== 200) throw new Error(`asking for a sign-in link answered ${status}`);
  const mail = await newestMailTo(email);
  const link = mail.match(/https?:\/\/\S+\/sign-in\/email-link\?key=[0-9a-f]{64}\S*/)?.[0];
  if (!link) throw new Error(`no sign-in link in the mail:\n${mail}`);
  await page.goto(link.replace(/^https?:\/\/[^/]+/, baseUrl));
  await page.waitForURL(`${baseUrl}/app`, { timeout: TIMEOUT });
}

/** Podcasts of the catalog with their latest episodes, from the API. */
export async function latestPodcasts(query = '') {
  const latest = await api(`/episodes/latest${query}`);
  return latest.latestPodcasts;
}

/** A new project made through the API; returns its slug and id. */
export async function createProject(name) {
  const created = await apiCall('PUT', '/projects', { body: { name, projectTypes: ['guest-booking'] } });
  return created.project;
}

/** The newest mail in the outbox sent to `to`, waiting for it to arrive. */
export async function newestMailTo(to) {
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
    await sleep(200);
  }
  throw new Error(`no mail to ${to} in ${outbox}`);
}

/** Fails when the page is wider than the window (a phone would scroll sideways). */
export async function assertNoHorizontalOverflow(page, what) {
  const sizes = await page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    const width = window.innerWidth;
    // The widest offenders, to say what overflows when the check fails.
    const inScroller = (element) => {
      for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        if (['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(parent).overflowX)) return true;
      }
      return false;
    };
    const wide = [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > width + 1)
      .filter((element) => !inScroller(element) || ['absolute', 'fixed'].includes(getComputedStyle(element).position))
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).split(' ').join('.')}` : ''} (${Math.round(element.getBoundingClientRect().right)}px)`);
    return { scrollWidth: root.scrollWidth, innerWidth: width, wide };
  });
  assert(
    sizes.scrollWidth <= sizes.innerWidth,
    `${what}: the page is ${sizes.scrollWidth}px wide in a ${sizes.innerWidth}px window; wide elements: ${sizes.wide.join(', ') || 'none found'}`,
  );
}
