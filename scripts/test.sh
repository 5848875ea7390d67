#!/usr/bin/env bash
# Runs every test of Podlens: formatting, lints, and the Rust test suites
# (unit, integration, end-to-end over the real corpus in ../shared/corpus).
# Installs what the tests need first (idempotent).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/podlens-target}"

scripts/setup.sh

cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo test --workspace --locked
