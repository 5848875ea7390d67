// The JavaScript budget of the pages visitors land on. A page loads the app's entry module
// and everything it imports (index.html preloads those), and, when the page's code is not
// part of the entry, that code and everything it imports, which the app loads when the
// page is first shown. For the search page all of it, gzip-compressed, must stay under
// 300 KB; and the landing page, the search page and a podcast page must not load the
// chart library, which pages load when they draw a chart. Run after `vite build`; prints
// the measured sizes.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_BYTES = 300 * 1024;
const ENTRY = 'index.html';
const PAGES = {
  landing: 'src/app/routes/home.tsx',
  search: 'src/features/search/components/search-page.tsx',
  podcast: 'src/features/podcasts/components/podcast-page.tsx',
};
const CHART_DRAWING = 'src/components/charts/recharts-charts.tsx';

const web = new URL('../', import.meta.url).pathname;
const dist = join(web, 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
const html = readFileSync(join(dist, 'index.html'), 'utf8');

const fail = (message) => {
  console.error(`bundle budget: ${message}`);
  process.exit(1);
};

/** The chunk files `key` loads: its own and, transitively, those it imports statically. */
function closure(key, files = new Set()) {
  const chunk = manifest[key];
  if (!chunk) fail(`${key} is not in the build manifest`);
  if (files.has(chunk.file)) return files;
  files.add(chunk.file);
  for (const imported of chunk.imports ?? []) closure(imported, files);
  return files;
}

// index.html loads the entry and preloads its imports: the manifest must say the same.
const htmlScripts = new Set(
  [...html.matchAll(/<script[^>]*\bsrc="\/([^"]+\.js)"/g), ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="\/([^"]+\.js)"/g)].map(
    (match) => match[1],
  ),
);
const entryFiles = closure(ENTRY);
if ([...entryFiles].some((file) => !htmlScripts.has(file)) || htmlScripts.size !== entryFiles.size) {
  fail(`index.html loads ${[...htmlScripts].join(', ')} but the manifest's entry is ${[...entryFiles].join(', ')}`);
}

// The chart library: the drawing module's chunks that the entry does not load anyway.
const chartFiles = [...closure(CHART_DRAWING)].filter((file) => !entryFiles.has(file));

const gzipped = new Map();
const size = (file) => {
  if (!gzipped.has(file)) gzipped.set(file, gzipSync(readFileSync(join(dist, file))).length);
  return gzipped.get(file);
};
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

console.log(`  the chart library: ${chartFiles.map((file) => `${file} (${kb(size(file))} gz)`).join(', ')}`);
let failed = false;
// A page module with a chunk of its own is loaded on first show; one without is bundled
// into the chunks that import it, which must then be the entry's (not loaded later).
const lazilyImported = new Set(Object.values(manifest).flatMap((chunk) => chunk.dynamicImports ?? []));
for (const [name, module] of Object.entries(PAGES)) {
  if (!existsSync(join(web, module))) fail(`${module}: no such file`);
  let files = entryFiles;
  if (manifest[module]) files = closure(module, new Set(entryFiles));
  else if (lazilyImported.has(module)) fail(`${module} is loaded later but has no chunk in the manifest`);
  else console.log(`  the ${name} page's code is part of the entry`);
  const total = [...files].reduce((sum, file) => sum + size(file), 0);
  console.log(`bundle budget: the ${name} page loads ${kb(total)} of JavaScript gzipped in ${files.size} files`);
  for (const file of files) console.log(`  ${kb(size(file)).padStart(10)} gz  ${file}`);
  const charts = chartFiles.filter((file) => files.has(file));
  if (charts.length > 0) {
    console.error(`bundle budget: the ${name} page loads the chart library (${charts.join(', ')})`);
    failed = true;
  }
  if (name === 'search' && total > BUDGET_BYTES) {
    console.error(`bundle budget exceeded: the search page loads ${kb(total)} (budget ${kb(BUDGET_BYTES)})`);
    failed = true;
  }
}
if (failed) process.exit(1);
