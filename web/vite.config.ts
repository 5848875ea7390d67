import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * Writes a brotli and a gzip copy beside each built script, style sheet and page
 * (`app.js.br`, `app.js.gz`), compressed once at the highest levels: `podlens serve`
 * sends the copy the browser accepts instead of compressing the file on every request.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'podlens-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    writeBundle(_options, bundle) {
      for (const name of Object.keys(bundle)) {
        if (!/\.(js|css|html|svg|json)$/.test(name) || name.startsWith('.vite/')) continue;
        const path = join(outDir, name);
        const data = readFileSync(path);
        if (data.length < 1024) continue;
        const brotli = brotliCompressSync(data, {
          params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
        });
        writeFileSync(`${path}.br`, brotli);
        writeFileSync(`${path}.gz`, gzipSync(data, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: {
    // During development the API runs on `podlens serve`; the built bundle is served by it.
    proxy: { '/api': process.env.PODLENS_API_URL ?? 'http://127.0.0.1:8080' },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    // dist/.vite/manifest.json: which chunks each page loads, read by scripts/bundle-budget.mjs.
    manifest: true,
    rollupOptions: {
      output: {
        // The libraries every page runs share one long-cached chunk; the chart library and
        // what only it uses stay in the chunk of the charts, which pages load when they
        // draw one (src/components/charts/charts.tsx).
        manualChunks(id) {
          if (/node_modules\/(react|react-dom|scheduler|react-router|@tanstack|cookie|set-cookie-parser)\//.test(id)) return 'vendor';
          return undefined;
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
  },
});
