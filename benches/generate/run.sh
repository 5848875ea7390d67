#!/usr/bin/env bash
# Measures `podlens generate` at benchmark scale with a release build and prints the
# summary line and peak memory. Usage: benches/generate/run.sh [PODCASTS] [OUT]
set -euo pipefail
podcasts="${1:-10000}"
out="${2:-/tmp/podlens-generate-bench}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
target="${CARGO_TARGET_DIR:-$HOME/.cache/podlens-target}"
cargo build --release -p podlens-tools --manifest-path "$root/Cargo.toml" >&2
rm -rf "$out"
/usr/bin/time -f "peak RSS %M KB, %e s wall, %U s user, %S s system" \
  "$target/release/podlens" --no-progress generate --podcasts "$podcasts" --seed 42 --out "$out"
du -sh "$out"/feeds "$out"/transcripts "$out"/sites "$out"/charts
