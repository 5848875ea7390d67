#!/usr/bin/env bash
# Runs every test of Podlens: formatting, lints, the Rust test suites (unit,
# integration, end-to-end over the real corpus in ../shared/corpus), the official
# Pod Engine Python SDK against a real server, the web app's type check, build and unit
# tests, and its end-to-end tests in Chromium against a real server. (The model's entity
# tests validate our JSON with the official SDK's own response models.)
# Installs what the tests need first (idempotent).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/podlens-target}"
# setup.sh installs all-mpnet-base-v2: the tests that need it fail rather than skip.
export PODLENS_REQUIRE_MODEL=1
# setup.sh installs faster-whisper, Whisper base and espeak-ng: the speech tests fail rather than skip.
export PODLENS_REQUIRE_WHISPER=1

scripts/setup.sh

echo "== rust: format, lints, tests"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo test --workspace --locked

echo "== security: dependency licences, bans, sources and advisories"
scripts/check-deps.sh

echo "== fuzz: every target for 15 s (seeded from the real corpus)"
scripts/fuzz.sh 15

echo "== ingest: differential check against feedparser on the real corpus"
cargo build --locked -p podlens-tools --bin podlens
PODLENS_BIN="$CARGO_TARGET_DIR/debug/podlens" python3 -m pytest -q tests/ingest

echo "== api: the committed OpenAPI document and the web's types generated from it are current"
"$CARGO_TARGET_DIR/debug/podlens" openapi > web/openapi.json
(cd web && npm run --silent gen:api)
git diff --exit-code -- web/openapi.json web/src/lib || {
  echo "stale: run podlens openapi > web/openapi.json, then (cd web && npm run gen:api)" >&2
  exit 1
}
python3 scripts/check-web-api-paths.py

echo "== web: type check + build, unit tests"
(
  cd web
  npm run --silent build
  npm test --silent
)

echo "== sdk: the official podengine SDK against a real podlens serve"
cargo build --locked -p podlens-tools --bin podlens -p podlens-api --example build_fixture_catalog
python3 -m pytest -q tests/sdk

echo "== api: schemathesis against the server's own OpenAPI document (about 25 s)"
scripts/schemathesis.sh

echo "== web: end to end in Chromium against a real podlens serve"
scripts/e2e.sh
