#!/usr/bin/env bash
# Times the server's incremental index update for stored transcripts on a copy of a
# data directory with a published index (the demo's: `podlens demo --no-serve
# --data-dir DIR`). Usage: benches/index-update/run.sh DATA_DIR [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/podlens-target}"
source_dir="${1:?usage: run.sh DATA_DIR [RUNS]}"
runs="${2:-5}"
profile="${PROFILE:-dev}"
flag=""
[ "$profile" = release ] && flag="--release"
cargo build $flag --locked -p podlens-api --example index_update_timing
bin="$CARGO_TARGET_DIR/$([ "$profile" = release ] && echo release || echo debug)/examples/index_update_timing"
copy="$(mktemp -d)"
trap 'rm -rf "$copy"' EXIT
# The update writes only index/; the snapshot is read. A copy keeps DATA_DIR as it was.
# parquet is a link to the published generation: copy the files it leads to.
mkdir -p "$copy/parquet" && cp -a "$source_dir/parquet/." "$copy/parquet/"
cp -a "$source_dir/index" "$copy/index"
echo "profile: $profile; $(nproc) cores; $(date -u +%FT%TZ)"
"$bin" "$copy" "$runs"
