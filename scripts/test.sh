#!/usr/bin/env bash
# Runs every test of Podlens: formatting, lints, the Rust test suites (unit,
# integration, end-to-end over the real corpus in ../shared/corpus), the web app's
# type check, build and unit tests, and — against a real server over a catalog built
# by the real pipeline — the official SDK's compatibility tests and the browser tests.
# Installs what the tests need first (idempotent).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/podlens-target}"

scripts/setup.sh

echo "== rust: format, lints, tests"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo test --workspace --locked

echo "== web: types up to date, type check + build, unit tests"
(
  cd web
  npm run --silent gen:api
  git diff --exit-code -- src/lib || { echo "web/src/lib is stale: run npm run gen:api" >&2; exit 1; }
  npm run --silent build
  npm test --silent
)

echo "== end to end: pipeline, server, SDK and browser tests"
cargo build --locked -p podlens-tools
podlens="$CARGO_TARGET_DIR/debug/podlens"
work=$(mktemp -d)
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
export PODLENS_NO_PROGRESS=1
"$podlens" --data-dir "$work/data" demo --podcasts 120 --transcript-share 0.3 --no-serve \
  > "$work/demo.log" 2>&1 || { cat "$work/demo.log" >&2; exit 1; }
key=$(tail -n 1 "$work/demo.log")
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$podlens" --data-dir "$work/data" serve --port "$port" --web-dir "$root/web/dist" \
  > "$work/serve.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 100); do
  curl -fsS "http://127.0.0.1:$port/api/v1/public/health" >/dev/null 2>&1 && break
  sleep 0.2
done
export PODLENS_E2E_URL="http://127.0.0.1:$port" PODLENS_E2E_KEY="$key"
export PODLENS_TEST_URL="$PODLENS_E2E_URL" PODLENS_TEST_KEY="$key" PODLENS_BIN="$podlens"
if [ -d tests/sdk ]; then
  python3 -m pytest -q tests/sdk
fi
(cd web && npm run --silent e2e)
