#!/usr/bin/env bash
# The web app's end-to-end tests: Debian's Chromium (driven by playwright-core) against a
# real `podlens serve` over the fixture catalog (the real corpus feeds and transcripts,
# ingested, stored and indexed by the real crates), serving the built web bundle.
# Sign-up mail goes to the data directory's outbox, where the tests read the link.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-$HOME/.cache/podlens-target}"

cargo build --locked -p podlens-tools --bin podlens -p podlens-api --example build_fixture_catalog
test -f web/dist/index.html || (cd web && npm run --silent build)

. scripts/lib/fixture-server.sh
start_fixture_server e2e e2e-business@example.com business --web-dir web/dist

screenshots="${PODLENS_E2E_SCREENSHOTS:-$PWD/web/e2e/screenshots}"
(cd web && PODLENS_E2E_URL="$url" PODLENS_E2E_KEY="$key" PODLENS_E2E_OUTBOX="$data/outbox" \
  PODLENS_E2E_SCREENSHOTS="$screenshots" npm run --silent e2e)
