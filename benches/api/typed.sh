#!/usr/bin/env bash
# Two builds of `podlens` side by side on the searches people type: the podcast and
# episode queries of benches/relevance/queries.tsv (written as booking agents,
# advertisers and listeners search), each sent as a search box's text with the targets
# the relevance benchmark measures: one optional term over podcast title and description
# for podcasts (which also reach a show's episodes text) and over episode title,
# description and transcript for episodes, relevance order, the API's default page. Both
# builds serve at once and each query goes to one and the other in turn, one request at
# a time (which goes first alternates), over ROUNDS rounds after two of warm-up: the
# medians and p99 of the client's time and the engine's own (`totalSearchTimeMs`), per
# kind of query.
#
# AFTER_BIN serves run.sh's catalog ($BENCH_DATA_DIR, built by AFTER_BIN when missing).
# BEFORE_BIN serves the same catalog (linked) with an index it builds itself
# ($BEFORE_DATA_DIR, default the catalog's directory with "-before"), so that builds with
# different index formats compare over one catalog; for builds of one format, point
# BEFORE_DATA_DIR at the catalog's own directory.
#
# Usage: benches/api/typed.sh BEFORE_BIN AFTER_BIN [PODCASTS] [ROUNDS]
set -euo pipefail
before="$1"
after="$2"
rounds="${4:-20}"
PODLENS_BIN="$after"
source "$(cd "$(dirname "$0")" && pwd)/common.sh" "${3:-2000}"
kill "$server"
wait "$server" 2>/dev/null || true

before_data="${BEFORE_DATA_DIR:-$data-before}"
if [[ ! -d "$before_data/index" ]]; then
  rm -rf "$before_data"
  mkdir -p "$before_data"
  # The catalog linked (it is only read), not the index or the generated feeds.
  for entry in "$data"/*; do
    case "$(basename "$entry")" in
      index | demo-corpus | app.sqlite3*) ;;
      *) ln -s "$entry" "$before_data/" ;;
    esac
  done
  "$before" index --data-dir "$before_data" --no-progress >&2
fi
# The app database, with the key just made (BEFORE_DATA_DIR may be the catalog's own
# directory, for builds of one index format).
[[ "$before_data" -ef "$data" ]] || cp "$data/app.sqlite3" "$before_data/app.sqlite3"

logs=("$(mktemp)" "$(mktemp)")
temporary_files+=("${logs[@]}")
serve "$before" "${logs[0]}" "$before_data"
url_before="$base"
serve "$after" "${logs[1]}"
url_after="$base"

echo "catalog: $counts ($data; before: $before_data)"
echo "before: $before"
echo "after: $after"
echo "$(nproc) cores, load average before the run: $(cut -d" " -f1 /proc/loadavg); $rounds rounds"
echo
PYTHONPATH="$here" python3 - "$url_before" "$url_after" "$key" "$root/benches/relevance/queries.tsv" "$rounds" <<'PY'
"""One request at a time, the two servers in turn (alternate.py)."""
import collections, csv, json, statistics, sys
from alternate import alternate

urls, key, queries, rounds = sys.argv[1:3], sys.argv[3], sys.argv[4], int(sys.argv[5])
targets = {"podcasts": ["podcast-title", "podcast-description"],
           "episodes": ["episode-title", "episode-description", "transcript"]}
searches = []
with open(queries, newline="") as tsv:
    for row in csv.reader(tsv, delimiter="\t", quoting=csv.QUOTE_NONE):
        if len(row) < 4 or row[1] not in targets:
            continue
        kind, category, text = row[1], row[2], row[3]
        body = {"searchTerms": [{"searchTerm": text, "searchType": "text",
                                 "searchTargets": targets[kind],
                                 "searchTermOptions": {"matchMode": "optional"}}]}
        searches.append((kind, category.split(",")[0], json.dumps(body)))

def quantile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

seen = collections.defaultdict(lambda: ([], [], [], []))
requests = [(f"/api/v1/search/{kind}", body) for kind, _, body in searches]
for index, which, elapsed, times in alternate(urls, key, requests, rounds):
    kind, category, _ = searches[index]
    for group in (kind, f"{kind}: {category}"):
        seen[group][2 * which].append(elapsed)
        seen[group][2 * which + 1].append(times["totalSearchTimeMs"])

print("| queries | requests | client p50 before | after | client p99 before | after | engine p50 before | after | engine p99 before | after |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for group in sorted(seen, key=lambda g: (g.split(":")[0], ":" in g, g)):
    client_before, engine_before, client_after, engine_after = seen[group]
    cells = []
    for pair in ((client_before, client_after), (engine_before, engine_after)):
        cells += [f"{statistics.median(pair[0]):.2f}", f"{statistics.median(pair[1]):.2f}"]
        cells += [f"{quantile(pair[0], 0.99):.2f}", f"{quantile(pair[1], 0.99):.2f}"]
    print(f"| {group} | {len(client_after)} | " + " | ".join(cells) + " |")
PY
