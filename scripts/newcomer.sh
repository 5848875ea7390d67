#!/usr/bin/env bash
# The README's main command the way a newcomer meets it, small and fast: the debug
# `podlens demo` over 100 generated podcasts with a static model of the corpus's own words
# (--small-model), on a free port, in a fresh data directory; then Chromium opens the app
# it serves (/, a scored podcast page, a directory letter) and the API answers a semantic
# search and a transcript search with its matchSnippet (web/e2e/newcomer.mjs).
# The release `scripts/demo.sh` runs the same pipeline at full size.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-$HOME/.cache/podlens-target}"

cargo build --locked -p podlens-tools --bin podlens
test -f web/dist/index.html || (cd web && npm run --silent build)

data="$(mktemp -d "${TMPDIR:-/tmp}/podlens-newcomer-XXXXXX")"
demo=""
cleanup() {
  if [ -n "$demo" ]; then kill "$demo" 2>/dev/null || true; wait "$demo" 2>/dev/null || true; fi
  rm -rf "$data"
}
trap cleanup EXIT

PODLENS_NO_PROGRESS=true "$target/debug/podlens" demo --data-dir "$data" --podcasts 100 \
  --port 0 --small-model >"$data/demo.log" 2>&1 &
demo=$!
url=""
for _ in $(seq 1 1800); do
  url="$(grep -o 'serving the app at http://127\.0\.0\.1:[0-9]*' "$data/demo.log" | grep -o 'http.*' || true)"
  [ -n "$url" ] && break
  kill -0 "$demo" 2>/dev/null || { cat "$data/demo.log" >&2; echo "podlens demo stopped" >&2; exit 1; }
  sleep 0.5
done
[ -n "$url" ] || { cat "$data/demo.log" >&2; echo "podlens demo did not serve within 15 minutes" >&2; exit 1; }
grep -E '^[0-9]/7 ' "$data/demo.log"
key="$(grep -A1 'it is shown only once' "$data/demo.log" | tail -n 1)"

screenshots="${PODLENS_E2E_SCREENSHOTS:-$PWD/web/e2e/screenshots}"
(cd web && PODLENS_E2E_SUITE=newcomer PODLENS_E2E_URL="$url" PODLENS_E2E_KEY="$key" \
  PODLENS_E2E_SCREENSHOTS="$screenshots" npm run --silent e2e)
