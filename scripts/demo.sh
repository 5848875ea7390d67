#!/usr/bin/env bash
# The main job: builds Podlens and runs `podlens demo` — the whole pipeline on a
# generated catalog, on this machine only (no network needed).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/podlens-target}"

scripts/setup.sh
cargo build --release --locked -p podlens-tools
exec "$CARGO_TARGET_DIR/release/podlens" demo "$@"
