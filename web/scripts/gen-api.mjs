// Regenerates the API types from the server's OpenAPI document, committed as openapi.json
// (`podlens openapi > web/openapi.json`, what GET /api/v1/openapi.json answers), into
// src/lib/api-schema.d.ts. CI regenerates both and fails when `git diff --exit-code` shows
// the committed document or types are stale.

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = `${root}node_modules/.bin/openapi-typescript`;

execFileSync(bin, ['openapi.json', '-o', 'src/lib/api-schema.d.ts'], { cwd: root, stdio: 'inherit' });
