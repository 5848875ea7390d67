// The search page's JavaScript budget: every script the page loads before it can run
// (the entry module and every module it preloads), gzip-compressed, must stay under
// 300 KB. Run after `vite build`; prints the measured sizes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_BYTES = 300 * 1024;
const dist = new URL('../dist/', import.meta.url).pathname;
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const scripts = [
  ...html.matchAll(/<script[^>]*\bsrc="([^"]+\.js)"/g),
  ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+\.js)"/g),
].map((match) => match[1]);
if (scripts.length === 0) {
  console.error('bundle budget: no scripts found in dist/index.html');
  process.exit(1);
}
let total = 0;
for (const script of scripts) {
  const size = gzipSync(readFileSync(join(dist, script.replace(/^\//, '')))).length;
  total += size;
  console.log(`  ${(size / 1024).toFixed(1).padStart(7)} KB gz  ${script}`);
}
console.log(`bundle budget: the search page loads ${(total / 1024).toFixed(1)} KB of JavaScript gzipped (budget ${BUDGET_BYTES / 1024} KB)`);
if (total > BUDGET_BYTES) {
  console.error('bundle budget exceeded');
  process.exit(1);
}
