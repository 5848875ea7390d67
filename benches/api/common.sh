# Shared setup of the API benchmarks (sourced by run.sh, hybrid.sh and mixed.sh): their
# arguments [PODCASTS] [SECONDS] [CONNECTIONS] (SECONDS defaults to $default_seconds,
# else 20), the release binary, the catalog of `podlens demo --no-serve`, an admin key,
# a running `podlens serve` ($server, $base; `start_server` starts another) stopped on
# exit with every file of $temporary_files removed (`on_exit`), `run` (one wrk run into
# $results, for table.py), and realistic inputs from the catalog: $ids (50 podcast ids)
# and search bodies built from catalog podcast and episode title words, one JSON body per
# line, in $bodies_podcasts and $bodies_episodes; $counts says what the catalog holds.
podcasts="${1:-2000}"
seconds="${2:-${default_seconds:-20}}"
connections="${3:-16}"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
if [[ -z "${PODLENS_BIN:-}" ]]; then
  cargo build --release --locked -p podlens-tools --bin podlens --manifest-path "$root/Cargo.toml" >&2
  PODLENS_BIN="$target/release/podlens"
fi
data="${BENCH_DATA_DIR:-/tmp/podlens-api-bench-$podcasts}"
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }
export PODLENS_NO_PROGRESS=true

if [[ ! -f "$data/parquet/podcasts.parquet" || ! -d "$data/index" ]]; then
  rm -rf "$data"
  "$PODLENS_BIN" demo --no-serve --port 0 --podcasts "$podcasts" --data-dir "$data" >&2
fi
key="$("$PODLENS_BIN" keys create --data-dir "$data" --email "bench-$$@podlens.local" --plan admin | tail -n 1)"

log="$(mktemp)"
# Starts `podlens serve` over DIR (more flags after it) on a free port: sets $server
# and $base once it listens.
start_server() {
  local dir="$1"
  shift
  "$PODLENS_BIN" serve --data-dir "$dir" --port 0 "$@" >"$log" 2>/dev/null &
  server=$!
  # A large catalog takes a while to open (up to a minute at 1M episodes).
  for _ in $(seq 600); do grep -q "listening on" "$log" && break; sleep 0.1; done
  base="$(grep -o 'http://127.0.0.1:[0-9]*' "$log" | head -n 1)"
}
start_server "$data"
results="$(mktemp)"
temporary_files=("$log" "$results")
# Servers of several builds at once (compare.sh, typed.sh): `serve BIN LOG [DIR]` starts
# BIN over DIR (default the catalog) with its own LOG (start_server), sets $server and
# $base, and `stop_servers` stops every server it started.
servers=()
serve() {
  log="$2" PODLENS_BIN="$1" start_server "${3:-$data}" --no-poll
  servers+=("$server")
}
stop_servers() {
  for pid in "${servers[@]}"; do
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  servers=()
}
# Stops the servers and removes $temporary_files (the trap on exit; a script with more to
# stop calls it from its own).
on_exit() {
  stop_servers
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -f "${temporary_files[@]}"
}
trap on_exit EXIT

# Realistic inputs from the catalog itself: podcast ids, and title words to search for.
latest="$(curl -fsS -H "Authorization: $key" "$base/api/v1/podcasts/latest")"
ids="$(python3 -c 'import json,sys; print(" ".join(p["id"] for p in json.load(sys.stdin)["data"]["podcasts"][:50]))' <<<"$latest")"
words="$(python3 -c '
import json, sys
titles = [p["title"] for p in json.load(sys.stdin)["data"]["podcasts"]]
words = sorted({w.strip(",.:!?").lower() for t in titles for w in t.split() if len(w) > 4})
print(" ".join(words[:12]))' <<<"$latest")"
# Episode searches look for words of episode titles (podcast title words are often in
# no episode of a generated catalog, and an empty answer measures nothing): 12 words
# of five letters or more, spread over the ranks 20-240 of their frequency.
episode_words="$(python3 - "$data" <<'PY'
import collections, re, sys, duckdb
titles = duckdb.connect().execute(
    f"select episodeRssTitle from '{sys.argv[1]}/parquet/episodes.parquet' order by episodeId limit 20000").fetchall()
counts = collections.Counter(
    w for (title,) in titles for w in re.findall(r"[a-z]{5,}", (title or "").lower()))
ranked = [w for w, _ in counts.most_common(240)][20:]
print(" ".join(ranked[::len(ranked) // 12][:12]))
PY
)"
bodies_podcasts="$(mktemp)"
bodies_episodes="$(mktemp)"
temporary_files+=("$bodies_podcasts" "$bodies_episodes")
python3 - "$bodies_podcasts" "$bodies_episodes" "$episode_words" $words <<'PY'
import json, sys
podcasts_file, episodes_file, episode_words, words = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4:]
def term(text, targets, mode="must"):
    return {"searchTerm": text, "searchType": "text", "searchTargets": targets,
            "searchTermOptions": {"matchMode": mode}}
with open(podcasts_file, "w") as out:
    for i, word in enumerate(words):
        body = {"searchTerms": [term(word, ["podcast-title", "podcast-description"])]}
        if i % 3 == 1:
            body["languages"] = ["en"]
        if i % 3 == 2:
            body["searchTerms"].append(term(words[(i + 1) % len(words)], ["podcast-description"], "optional"))
        out.write(json.dumps(body) + "\n")
with open(episodes_file, "w") as out:
    for i, word in enumerate(episode_words):
        body = {"searchTerms": [term(word, ["episode-title", "episode-description"])]}
        if i % 2:
            body["sortOrder"] = [{"field": "recentActivity", "direction": "desc"}]
        out.write(json.dumps(body) + "\n")
PY

counts="$(curl -fsS "$base/api/v1/rss/stats/public/podcast2" >/dev/null && python3 - "$data" <<'PY'
import sys, duckdb
parquet = sys.argv[1] + "/parquet"
con = duckdb.connect()
podcasts = con.execute(f"select count(*) from '{parquet}/podcasts.parquet'").fetchone()[0]
episodes = con.execute(f"select count(*) from '{parquet}/episodes.parquet'").fetchone()[0]
transcripts = con.execute(f"select count(*) from '{parquet}/transcripts.parquet'").fetchone()[0]
print(f"{podcasts} podcasts, {episodes} episodes, {transcripts} transcripts")
PY
)"

# One wrk run of `load.lua` against the server: appends "name<TAB>json<TAB>ticks" to
# $results (for table.py). Arguments: name, paths, bodies file, keys (default the
# admin key) and an Accept-Encoding header to send (default none: answers uncompressed). The server's CPU time (user + system, in clock ticks) is read before and
# after, so each line also says what one request costs the server, a figure that
# depends far less on what else the machine runs than requests/s does.
server_ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }
run() {
  local name="$1" paths="$2" bodies="$3" keys="${4:-$key}" encoding="${5:-}" line before after
  local headers=()
  [[ -n "$encoding" ]] && headers=(-H "Accept-Encoding: $encoding")
  before="$(server_ticks)"
  line="$(PODLENS_KEYS="$keys" PATHS="$paths" BODIES="$bodies" BENCH_LUA_DIR="$here" \
    wrk -t"$((connections < 2 ? connections : 2))" -c"$connections" -d"${seconds}s" --timeout 10s --latency "${headers[@]}" -s "$here/load.lua" "$base" | tail -n 1)"
  after="$(server_ticks)"
  printf '%s\t%s\t%s\n' "$name" "$line" "$((after - before))" >>"$results"
}

# The p50 latency in ms of PATH with the bodies of FILE sent one at a time on one
# connection by wrk (a client that costs far less per answer than Python's), for
# overhead.py's second "added" column.
one_connection_p50() {
  PODLENS_KEYS="$key" PATHS="$1" BODIES="$2" BENCH_LUA_DIR="$here" \
    wrk -t1 -c1 -d"${one_connection_seconds:-10}s" --timeout 10s -s "$here/load.lua" "$base" |
    tail -n 1 | python3 -c 'import json, sys; print(json.load(sys.stdin)["p50_ms"])'
}

# What the API adds to the engine's own time at one connection (overhead.py) for the
# podcast bodies of file $1 and the episode bodies of $2, with wrk's p50 for the same.
overhead() {
  WRK_P50_PODCASTS="$(one_connection_p50 /api/v1/search/podcasts "$1")" \
    WRK_P50_EPISODES="$(one_connection_p50 /api/v1/search/episodes "$2")" \
    python3 "$here/overhead.py" "$base" "$key" "$1" "$2"
}

