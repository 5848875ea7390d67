#!/usr/bin/env bash
# schemathesis against a real `podlens serve` over the fixture catalog (the real corpus
# feeds and transcripts, ingested and indexed by the real crates), reading the server's
# own GET /api/v1/openapi.json and sending a real admin key in the Authorization header.
# Every operation of the document is exercised with generated valid and invalid inputs;
# the run fails on any 5xx, any answer whose body does not match its documented schema,
# and any status code the document does not list for the operation.
# Bounded in time: the examples phase, widened by scripts/schemathesis_hooks.py with every
# query parameter of every GET operation alone at each boundary value (chrono's date
# limits and past them, integers past each width, `NaN`, ``), on a real podcast and
# episode; the coverage phase (boundary and invalid values of every parameter and body
# field as the schema declares them); then at most ST_MAX_EXAMPLES random cases per
# operation (default 5), any one query parameter of which may hold a boundary value.
# About 1 minute for the ~140 operations on 2 busy cores.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-$HOME/.cache/podlens-target}"

cargo build --locked -p podlens-tools --bin podlens -p podlens-api --example build_fixture_catalog

. scripts/lib/fixture-server.sh
# An admin key: no plan limit turns generated calls into 429s, so every operation is
# reached with inputs it has to answer.
start_fixture_server schemathesis schemathesis@example.com admin

# Sign-up and sign-in mail goes to the data directory's outbox (no SMTP server is
# configured here), and no route of the document revokes API keys, so the key in use
# stays valid for the whole run. One operation is left out: the fixture index has no
# vectors (no embedding model is built here), so semantic search answers its documented
# 503 to every call; api/tests/semantic.rs covers it with and without vectors.
# A podcast and an episode of the fixture for the hooks' path parameters.
first_id() {
  python3 -c 'import json, sys
def find(value, key):
    if isinstance(value, dict):
        if isinstance(value.get(key), str):
            return value[key]
        value = list(value.values())
    if isinstance(value, list):
        for item in value:
            found = find(item, key)
            if found:
                return found
    return None
print(find(json.load(sys.stdin), sys.argv[1]) or "")' "$1"
}
latest="$(curl -sf -H "Authorization: $key" "$url/api/v1/episodes/latest?limit=1")"
export ST_PODCAST_ID="$(first_id podcastId <<<"$latest")"
export ST_EPISODE_ID="$(first_id episodeId <<<"$latest")"
[ -n "$ST_PODCAST_ID" ] && [ -n "$ST_EPISODE_ID" ] || { echo "no podcast or episode in $latest" >&2; exit 1; }

status=0
SCHEMATHESIS_HOOKS=schemathesis_hooks PYTHONPATH="scripts${PYTHONPATH:+:$PYTHONPATH}" \
st run "$url/api/v1/openapi.json" \
  --url "$url" \
  --header "Authorization: $key" \
  --exclude-path /api/v1/search/semantic \
  --checks not_a_server_error,response_schema_conformance,status_code_conformance \
  --phases examples,coverage,fuzzing \
  --max-examples "${ST_MAX_EXAMPLES:-5}" \
  --workers 2 \
  --seed 1 \
  --request-timeout 30 \
  --generation-database none \
  --no-color || status=$?
if [ "$status" -ne 0 ]; then
  echo "== server log (last 40 lines)" >&2
  tail -n 40 "$data/serve.log" >&2
fi
exit "$status"
