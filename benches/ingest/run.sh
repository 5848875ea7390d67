#!/usr/bin/env bash
# Parse + normalise throughput on the real feeds of the shared corpus, one core, in
# one run: Podlens's reader (release build of ingest/examples/parse_corpus.rs, best of
# 5 passes) beside Python's podcastparser and feedparser (python_parsers.py, best of
# ROUNDS passes; one pass of feedparser takes minutes). Every process is pinned to
# CPU 0. Prints a Markdown table; the committed output is RESULTS.md.
# Usage: benches/ingest/run.sh [ROUNDS]
set -euo pipefail
rounds="${1:-1}"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
target="${CARGO_TARGET_DIR:-$HOME/.cache/podlens-target}"
corpus="${PODLENS_CORPUS:-$root/../shared/corpus}"
reader="$target/release/examples/parse_corpus"
if [ ! -x "$reader" ] || [ "$root/ingest/examples/parse_corpus.rs" -nt "$reader" ]; then
  cargo build --release --locked --manifest-path "$root/Cargo.toml" \
    -p podlens-tools --bin podlens -p podlens-ingest --example serve_dir --example parse_corpus >&2
fi
# The real feeds: the top level of feeds/ in INDEX.tsv (not malformed/ or edge-cases/).
mapfile -t files < <(awk -F'\t' -v corpus="$corpus" 'NR > 1 && split($1, parts, "/") == 2 { print corpus "/" $1 }' "$corpus/feeds/INDEX.tsv")
results="$(mktemp)"
trap 'rm -f "$results"' EXIT
taskset -c 0 "$reader" --rounds 5 "${files[@]}" | sed 's/^{/{"parser": "podlens", /' > "$results"
taskset -c 0 python3 "$here/python_parsers.py" --rounds "$rounds" "${files[@]}" >> "$results" 2> /dev/null
python3 - "$results" <<'PY'
import importlib.metadata as metadata
import json
import os
import sys

rows = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
versions = {"podlens": "release build", "feedparser": metadata.version("feedparser"),
            "podcastparser": metadata.version("podcastparser")}
feedparser = next(row for row in rows if row["parser"] == "feedparser")
print(f"corpus: {rows[0]['files']} real feeds, {rows[0]['bytes'] / 1e6:.1f} MB; one core (taskset -c 0); "
      f"load average after the run: {os.getloadavg()[0]:.1f}")
print()
print("Per core: MB/s and episodes/s from the CPU time of the parsing thread (best pass); wall")
print("seconds shown too (they include waiting for the shared core).")
print()
print("| parser | version | episodes | failures | wall s | CPU s | MB/s | episodes/s | speed vs feedparser |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
for row in rows:
    cpu = row["cpu_seconds"]
    print(f"| {row['parser']} | {versions[row['parser']]} | {row['episodes']} | {len(row['failures'])} | "
          f"{row['seconds']:.2f} | {cpu:.2f} | {row['bytes'] / 1e6 / cpu:.1f} | {row['episodes'] / cpu:.0f} | "
          f"{feedparser['cpu_seconds'] / cpu:.1f}x |")
for row in rows:
    for failure in row["failures"][:5]:
        print(f"\n- {row['parser']} failed: {failure}")
PY
