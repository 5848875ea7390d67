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

data="$(mktemp -d "${TMPDIR:-/tmp}/podlens-e2e-XXXXXX")"
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$data"
}
trap cleanup EXIT

(cd api && "$target/debug/examples/build_fixture_catalog" "$data")
key="$(PODLENS_NO_PROGRESS=true "$target/debug/podlens" keys create --data-dir "$data" \
  --email e2e-business@example.com --plan business | tail -n 1)"

"$target/debug/podlens" serve --data-dir "$data" --port 0 --web-dir web/dist >"$data/serve.log" 2>&1 &
server=$!
url=""
for _ in $(seq 1 100); do
  url="$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$data/serve.log" | head -n 1 || true)"
  [ -n "$url" ] && break
  kill -0 "$server" 2>/dev/null || { cat "$data/serve.log" >&2; exit 1; }
  sleep 0.2
done
[ -n "$url" ] || { echo "the server did not start" >&2; cat "$data/serve.log" >&2; exit 1; }

screenshots="${PODLENS_E2E_SCREENSHOTS:-$PWD/web/e2e/screenshots}"
(cd web && PODLENS_E2E_URL="$url" PODLENS_E2E_KEY="$key" PODLENS_E2E_OUTBOX="$data/outbox" \
  PODLENS_E2E_SCREENSHOTS="$screenshots" npm run --silent e2e)
