#!/usr/bin/env bash
# Runs every test of Podlens: formatting, lints, the Rust test suites (unit,
# integration, end-to-end over the real corpus in ../shared/corpus), the web app's
# type check, build and unit tests, and the official SDK's compatibility tests against
# a real server over a catalog built by the real pipeline.
# Installs what the tests need first (idempotent).
set -euo pipefail
cd "$(dirname "$0")/.."
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

echo "== SDK compatibility: the official podengine SDK against a real server"
# The server runs over a catalog built by the real pipeline (the api crate's
# build_fixture_catalog example, compiled by `cargo test` above); see tests/sdk/conftest.py.
cargo build --locked -p podlens-tools -p podlens-api --examples
python3 -m pytest -q tests/sdk
