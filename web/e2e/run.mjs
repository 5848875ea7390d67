// End-to-end tests of the web app in Debian's Chromium against a real `podlens serve`.
//
//   PODLENS_E2E_URL=http://127.0.0.1:8080 [PODLENS_E2E_KEY=<api key>] \
//   [PODLENS_E2E_OUTBOX=<data-dir>/outbox] [PODLENS_E2E_ONLY=<part of a test name>] npm run e2e
//
// The key should be of a plan with projects (business, agency or admin); the outbox is
// where the server writes mail when no SMTP server is configured (sign-up links).
// Screenshots of each main screen go to PODLENS_E2E_SCREENSHOTS (default e2e/screenshots).
// Expectations come from the server's own API answers, never from fixed titles.
// The scenarios live in the files imported below and run in this order.

import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

import { assert, baseUrl, screenshots, Skip, tests } from './lib.mjs';

// PODLENS_E2E_SUITE=newcomer runs only the newcomer's checks of the demo (scripts/newcomer.sh).
const suites =
  process.env.PODLENS_E2E_SUITE === 'newcomer'
    ? ['./newcomer.mjs']
    : ['./core.mjs', './workflows.mjs', './settings.mjs', './layout.mjs'];
for (const suite of suites) await import(suite);

const executablePath = process.env.PODLENS_E2E_CHROMIUM ?? '/usr/bin/chromium';
const only = process.env.PODLENS_E2E_ONLY ?? '';

if (!baseUrl) {
  console.log('e2e: skipped — PODLENS_E2E_URL is not set (start `podlens serve --data-dir DIR --port P` and pass its URL).');
  process.exit(0);
}

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
    for (const { name, run } of tests.filter((item) => item.name.includes(only))) {
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
  const ran = tests.filter((item) => item.name.includes(only)).length;
  console.log(`e2e: ${ran - failed - skipped} passed, ${failed} failed, ${skipped} skipped; screenshots in ${screenshots}`);
  process.exit(failed === 0 ? 0 : 1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
