// Largest Contentful Paint of the pages visitors land on, with a cold cache, in Debian's
// Chromium against a running `podlens serve` (see README.md).
//
//   node benches/web/lcp.mjs [label=URL ...]
//
// Each label=URL is one server (default: new=http://127.0.0.1:8080); with several, their
// runs alternate so that both see the same machine. Each run starts a browser with a new
// profile (nothing cached, no service worker, no stored key) and loads one page:
//
//   landing   /
//   podcast   /podcasts/<slug>: the first podcast of the latest episodes that is on a
//             chart, so the page draws its chart history (PODLENS_BENCH_PODCAST to choose)
//   search    /app/search?q=<query> (PODLENS_BENCH_QUERY, default "history"), which runs
//             the search; signed out, or signed in with PODLENS_BENCH_KEY
//
// Per page it reports LCP (p50 and max over PODLENS_BENCH_RUNS runs, default 7), the time
// the page's content was in place (the first episode, the podcast's title, the first
// result), the LCP element, and the JavaScript the page downloaded: bytes on the wire,
// bytes after decompression, files, and whether the chart library was among them.
// PODLENS_BENCH_NETWORK=broadband throttles every run to 20 Mbit/s down, 5 up, 40 ms
// round trip (Chromium's network emulation); the default is the loopback as it is.

import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(new URL('../../web/package.json', import.meta.url));
const { chromium } = require('playwright-core');

const RUNS = Number(process.env.PODLENS_BENCH_RUNS ?? 7);
const QUERY = process.env.PODLENS_BENCH_QUERY ?? 'history';
const KEY = process.env.PODLENS_BENCH_KEY ?? '';
const NETWORK = process.env.PODLENS_BENCH_NETWORK ?? 'loopback';
const CHROMIUM = process.env.PODLENS_BENCH_CHROMIUM ?? '/usr/bin/chromium';
const NETWORKS = {
  loopback: null,
  broadband: { offline: false, latency: 40, downloadThroughput: (20e6 / 8) | 0, uploadThroughput: (5e6 / 8) | 0 },
};
if (!(NETWORK in NETWORKS)) throw new Error(`PODLENS_BENCH_NETWORK: one of ${Object.keys(NETWORKS).join(', ')}`);

const servers = (process.argv.slice(2).length ? process.argv.slice(2) : ['new=http://127.0.0.1:8080']).map((arg) => {
  const [label, url] = arg.includes('=') ? arg.split(/=(.*)/s) : [arg, arg];
  return { label, base: url.replace(/\/$/, '') };
});

async function api(base, path) {
  const response = await fetch(`${base}${path}`, KEY ? { headers: { authorization: KEY } } : {});
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return (await response.json()).data;
}

/** A podcast of the catalog whose page draws a chart (its chart history). */
async function podcastSlug(base) {
  if (process.env.PODLENS_BENCH_PODCAST) return process.env.PODLENS_BENCH_PODCAST;
  const { latestPodcasts } = await api(base, '/api/v1/episodes/latest');
  for (const { podcast } of latestPodcasts) {
    const { presence } = await api(base, `/api/v1/podcasts/${encodeURIComponent(podcast.slug)}/charts/presence`);
    if (presence.charts.length > 0) return podcast.slug;
  }
  return latestPodcasts[0].podcast.slug;
}

// Runs in the page before its own scripts: keeps every LCP entry and the time the
// page's content first appears.
function observe(readySelector) {
  window.__bench = { lcp: [], ready: null };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const element = entry.element;
      const text = element?.textContent?.trim().replace(/\s+/g, ' ').slice(0, 50) ?? '';
      const name = element ? `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).split(' ')[0]}` : ''}` : '?';
      window.__bench.lcp.push({ time: entry.startTime, size: entry.size, element: `${name} "${text}"` });
    }
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  const check = () => {
    if (window.__bench.ready === null && document.querySelector(readySelector)) window.__bench.ready = performance.now();
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
}

async function measure(server, page) {
  const profile = mkdtempSync(join(tmpdir(), 'podlens-bench-web-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1280, height: 900 },
  });
  try {
    const tab = context.pages()[0] ?? (await context.newPage());
    const errors = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    if (NETWORKS[NETWORK]) {
      const cdp = await context.newCDPSession(tab);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', NETWORKS[NETWORK]);
    }
    if (page.key) await tab.addInitScript((key) => window.localStorage.setItem('podlens.apiKey', key), page.key);
    await tab.addInitScript(observe, page.ready);
    await tab.goto(`${server.base}${page.path}`, { waitUntil: 'load' });
    await tab.waitForSelector(page.ready, { timeout: 20_000 });
    await tab.waitForLoadState('networkidle');
    await tab.waitForTimeout(300);
    const result = await tab.evaluate(() => {
      const scripts = performance
        .getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
        .map((entry) => ({ path: new URL(entry.name).pathname, transfer: entry.transferSize, decoded: entry.decodedBodySize }));
      const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null;
      return { lcp: window.__bench.lcp.at(-1) ?? null, ready: window.__bench.ready, fcp, scripts };
    });
    if (errors.length) throw new Error(`${page.name}: page errors: ${errors.join('; ')}`);
    if (!result.lcp) throw new Error(`${page.name}: no LCP entry`);
    return result;
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const ms = (value) => `${Math.round(value)} ms`;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const isChartLibrary = (script) => /charts-[^/]*\.js$/.test(script.path) && script.decoded > 100_000;

async function main() {
  const slug = await podcastSlug(servers[0].base);
  const pages = [
    { name: 'landing', path: '/', ready: '.episode-row' },
    { name: 'podcast', path: `/podcasts/${encodeURIComponent(slug)}`, ready: '.podcast-header h1' },
    { name: 'search', path: `/app/search?q=${encodeURIComponent(QUERY)}`, ready: '.results .result', key: KEY || null },
  ];
  console.log(`# ${new Date().toISOString()}  runs ${RUNS}  network ${NETWORK}  load average ${loadavg().map((v) => v.toFixed(2)).join(' ')}`);
  console.log(`# search signed ${KEY ? 'in (PODLENS_BENCH_KEY)' : 'out'}; servers ${servers.map((s) => `${s.label}=${s.base}`).join(', ')}`);
  // One discarded load per server and page: the server's own first answers (its caches).
  for (const page of pages) for (const server of servers) await measure(server, page);

  const results = new Map();
  for (let run = 0; run < RUNS; run += 1) {
    for (const page of pages) {
      for (const server of servers) {
        const key = `${server.label} ${page.name}`;
        if (!results.has(key)) results.set(key, []);
        results.get(key).push(await measure(server, page));
      }
    }
  }

  console.log('');
  console.log('| server | page | LCP p50 | LCP max | content in place p50 | JS on the wire | JS decompressed | JS files | chart library | LCP element |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const page of pages) {
    for (const server of servers) {
      const runs = results.get(`${server.label} ${page.name}`);
      const lcps = runs.map((r) => r.lcp.time);
      const ready = runs.map((r) => r.ready);
      const last = runs.at(-1);
      const wire = last.scripts.reduce((sum, s) => sum + s.transfer, 0);
      const decoded = last.scripts.reduce((sum, s) => sum + s.decoded, 0);
      const charts = last.scripts.some(isChartLibrary) ? 'loaded' : 'not loaded';
      console.log(
        `| ${server.label} | ${page.name} | ${ms(percentile(lcps, 50))} | ${ms(Math.max(...lcps))} | ${ms(percentile(ready, 50))} | ${kb(wire)} | ${kb(decoded)} | ${last.scripts.length} | ${charts} | ${last.lcp.element} |`,
      );
    }
  }
  console.log('');
  console.log(`podcast page: /podcasts/${slug}; search page: /app/search?q=${QUERY}`);
  for (const server of servers) {
    for (const page of pages) {
      const runs = results.get(`${server.label} ${page.name}`);
      console.log(`${server.label} ${page.name} LCP runs (ms): ${runs.map((r) => Math.round(r.lcp.time)).join(' ')}`);
    }
  }
  for (const server of servers) {
    const slow = pages.filter((page) => Math.max(...results.get(`${server.label} ${page.name}`).map((r) => r.lcp.time)) >= 1000);
    console.log(`${server.label}: ${slow.length ? `LCP of 1 s or more in some runs of ${slow.map((page) => page.name).join(', ')}` : 'every run of every page under 1 s'}`);
  }
}

await main();
