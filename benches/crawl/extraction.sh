#!/usr/bin/env bash
# Extraction throughput on one core over the real pages of shared/corpus/websites/
# (parse, links, visible text, emails, phones): the crawler's criterion benchmark
# `extraction`, release profile. Prints criterion's report and the machine's load.
# Usage: benches/crawl/extraction.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
pages="$root/../shared/corpus/websites"
echo "pages: $(ls "$pages" | wc -l) files, $(du -cb "$pages"/* | tail -1 | cut -f1) bytes"
cargo bench --locked --manifest-path "$root/Cargo.toml" -p podlens-crawler --bench extraction \
  -- --noplot 2>&1 | grep -vE "^\s*(Compiling|Finished|Running|Gnuplot|Benchmarking)"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
