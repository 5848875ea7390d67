#!/usr/bin/env bash
# Static embedding model against exact all-mpnet-base-v2 on the real transcripts of
# ../shared/corpus; writes benches/embedding/RESULTS.md (see quality.rs).
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/install-model.sh
cargo bench -p podlens-indexer --bench embedding_quality "$@"
