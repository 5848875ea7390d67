#!/usr/bin/env bash
# Crawl throughput over SITES generated websites (default 10,000), each on a loopback host
# of its own (127.A.B.C), release build: `podlens generate` writes the sites, the
# crawler's `crawl_bench` example serves them from a child process on every loopback
# address and crawls each site once into a fresh HTTP cache, then again (revalidation).
# AT_ONCE sites are crawled at the same time with DELAY_MS between two requests to one
# host and one request per host in flight (the crawler's defaults are 1,000 ms and 1).
# Usage: benches/crawl/run.sh [SITES] [AT_ONCE] [DELAY_MS] [CORPUS_DIR]
set -euo pipefail
sites="${1:-10000}"
at_once="${2:-1000}"
delay_ms="${3:-1000}"
corpus="${4:-/tmp/podlens-crawl-corpus}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
target="${CARGO_TARGET_DIR:-$HOME/.cache/podlens-target}"
cargo build --release --locked --manifest-path "$root/Cargo.toml" \
  -p podlens-tools --bin podlens -p podlens-crawler --example crawl_bench >&2
if [ ! -d "$corpus/sites" ] || [ "$(ls "$corpus/sites" | wc -l)" -lt "$sites" ]; then
  "$target/release/podlens" --no-progress generate --podcasts "$sites" --seed 3 --out "$corpus" \
    --transcript-share 0 --chart-days 1 >&2
fi
echo "corpus: $(ls "$corpus/sites" | wc -l) sites, $(du -sh "$corpus/sites" | cut -f1)"
/usr/bin/time -v "$target/release/examples/crawl_bench" "$corpus" "$sites" "$at_once" "$delay_ms" 2> "$corpus.time"
grep -E "Maximum resident|User time|System time" "$corpus.time" | sed 's/^\s*/  /'
rm -f "$corpus.time"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
