#!/usr/bin/env bash
# What a poll of an unchanged feed costs the server, for the demo's median feed: generates
# the demo's corpus (`podlens demo`'s 2,000 podcasts and seed), picks the feed of median
# size and runs the `unchanged_poll` bench on it (release build). Its output is committed
# as benches/freshness/unchanged.txt.
# Usage: benches/freshness/unchanged.sh [PODLENS_BIN] [PODCASTS]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
target="${CARGO_TARGET_DIR:-$HOME/.cache/podlens-target}"
podlens="${1:-$target/debug/podlens}"
podcasts="${2:-2000}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$podlens" --no-progress generate --podcasts "$podcasts" --seed 42 --out "$out/corpus" >&2
median="$(ls -S "$out"/corpus/feeds/*.xml | awk '{ files[NR] = $0 } END { print files[int((NR + 1) / 2)] }')"
UNCHANGED_FEED="$median" cargo bench --locked -q --manifest-path "$root/Cargo.toml" \
  -p podlens-ingest --bench unchanged_poll 2>/dev/null \
  | sed "s|$out/corpus/||"
