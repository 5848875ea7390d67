#!/usr/bin/env bash
# `podlens serve`'s memory over the demo catalog of PODCASTS podcasts: resident,
# anonymous and mapped-file memory (from /proc/<pid>/status) after it starts and after
# SECONDS each of episode and podcast searches at CONNECTIONS connections.
# Usage: benches/api/memory.sh [PODCASTS] [SECONDS] [CONNECTIONS] (defaults 2000 15 8)
set -euo pipefail
set -- "${1:-2000}" "${2:-15}" "${3:-8}"
source "$(cd "$(dirname "$0")" && pwd)/common.sh"
memory() {
  grep -E '^(VmRSS|VmHWM|RssAnon|RssFile):' "/proc/$server/status" | tr -s ' \t' ' ' | tr '\n' ' '
}
echo "catalog: $counts ($data)"
echo "after start: $(memory)"
run "GET /api/v1/public/health" "/api/v1/public/health" ""
run "POST /api/v1/search/episodes (12 bodies)" "/api/v1/search/episodes" "$bodies_episodes"
run "POST /api/v1/search/podcasts (12 bodies)" "/api/v1/search/podcasts" "$bodies_podcasts"
echo "after the searches: $(memory)"
python3 "$here/table.py" "$results" "$(getconf CLK_TCK)"
