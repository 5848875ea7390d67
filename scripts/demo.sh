#!/usr/bin/env bash
# The main job: builds Podlens and its web app, then runs `podlens demo` — the whole
# pipeline on a generated catalog, on this machine only (no network needed), ending with
# the app and semantic search at http://127.0.0.1:8080.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/podlens-target}"

scripts/setup.sh
# The web bundle, when it is missing or older than any of its sources.
if [ ! -f web/dist/index.html ] || [ -n "$(find web/src web/public web/index.html web/package.json \
  web/package-lock.json web/vite.config.ts web/tsconfig.json -newer web/dist/index.html -print -quit 2>/dev/null)" ]; then
  echo "building the web app (web/dist)"
  (cd web && npm run --silent build)
fi
cargo build --release --locked -p podlens-tools
exec "$CARGO_TARGET_DIR/release/podlens" demo "$@"
