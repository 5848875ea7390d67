#!/usr/bin/env bash
# Vector top-10 over 1M real-derived 768-d chunks: brute-force f32 and int8 (as the
# index stores them) and an HNSW graph, side by side; writes benches/vectors/RESULTS.md
# (see search.rs). Needs the static model (`podlens model build`) and ~8 GB of memory.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo bench -p podlens-indexer --bench vector_search "$@"
