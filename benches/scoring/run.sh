#!/usr/bin/env bash
# `podlens score` over a catalog of PODCASTS podcasts and EPISODES episodes (default
# 50,000 and 1,000,000), release build. The catalog is written by the data crate's
# `synthetic_catalog` example (skewed episode counts, varied posting rhythm, lengths,
# artwork, show notes, funding and website links); the score run reads every podcast and
# episode, computes every authority score and writes them with the Parquet snapshot.
# Prints wall time, CPU time and peak RSS of each step (/usr/bin/time -v).
# Usage: benches/scoring/run.sh [PODCASTS] [EPISODES]
set -euo pipefail
podcasts="${1:-50000}"
episodes="${2:-1000000}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
target="${CARGO_TARGET_DIR:-$HOME/.cache/podlens-target}"
cargo build --release --locked --manifest-path "$root/Cargo.toml" \
  -p podlens-tools --bin podlens -p podlens-data --example synthetic_catalog >&2
data="$(mktemp -d /tmp/podlens-score-XXXXXX)"
trap 'rm -rf "$data"' EXIT

measure() {
  local label="$1"
  shift
  echo
  echo "== $label"
  /usr/bin/time -v "$@" 2> "$data.time"
  grep -E "Elapsed \(wall|Maximum resident|User time|System time" "$data.time" | sed 's/^\s*/  /'
  rm -f "$data.time"
}

measure "catalog: $podcasts podcasts, $episodes episodes" \
  "$target/release/examples/synthetic_catalog" "$data" "$podcasts" "$episodes"
measure "podlens score (first run)" "$target/release/podlens" --no-progress --data-dir "$data" score
measure "podlens score (again, replacing every score)" "$target/release/podlens" --no-progress --data-dir "$data" score
echo
echo "catalog: $(du -sh "$data/catalog.duckdb" | cut -f1) duckdb, $(du -sh "$data/parquet" | cut -f1) parquet"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
