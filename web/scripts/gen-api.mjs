// Regenerates the API types from the committed schema documents:
//   openapi.json    (the server's GET /api/v1/openapi.json) -> src/lib/api-schema.d.ts
//   sdk-schema.json (the SDK's wire models, `npm run gen:sdk`) -> src/lib/sdk-schema.d.ts
// CI runs it and fails when `git diff --exit-code` shows the committed types are stale.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = `${root}node_modules/.bin/openapi-typescript`;

function generate(input, output) {
  execFileSync(bin, [input, '-o', output], { cwd: root, stdio: 'inherit' });
}

generate('sdk-schema.json', 'src/lib/sdk-schema.d.ts');
if (existsSync(`${root}openapi.json`)) {
  generate('openapi.json', 'src/lib/api-schema.d.ts');
} else {
  console.log('gen:api: no openapi.json committed yet; the types come from the SDK models (sdk-schema.json).');
}
