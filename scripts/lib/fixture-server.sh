# Sourced by the scripts that test against a real `podlens serve` over the fixture
# catalog (the real corpus feeds and transcripts, ingested and indexed by the real crates).
#
#   start_fixture_server NAME EMAIL PLAN [SERVE_FLAG...]
#
# builds the fixture catalog into a fresh data directory, creates an API key for EMAIL on
# PLAN, starts the server on an ephemeral loopback port and sets `data`, `key`, `url` and
# `server`; the server is stopped and the data directory removed when the script exits.
# Expects `target` (the cargo target dir) and the debug `podlens` and
# `build_fixture_catalog` binaries built.

start_fixture_server() {
  local name="$1" email="$2" plan="$3"
  shift 3
  data="$(mktemp -d "${TMPDIR:-/tmp}/podlens-$name-XXXXXX")"
  server=""
  trap stop_fixture_server EXIT

  (cd api && "$target/debug/examples/build_fixture_catalog" "$data")
  key="$(PODLENS_NO_PROGRESS=true "$target/debug/podlens" keys create --data-dir "$data" \
    --email "$email" --plan "$plan" | tail -n 1)"

  "$target/debug/podlens" serve --data-dir "$data" --port 0 "$@" >"$data/serve.log" 2>&1 &
  server=$!
  url=""
  for _ in $(seq 1 100); do
    url="$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$data/serve.log" | head -n 1 || true)"
    [ -n "$url" ] && break
    kill -0 "$server" 2>/dev/null || { cat "$data/serve.log" >&2; exit 1; }
    sleep 0.2
  done
  [ -n "$url" ] || { echo "the server did not start" >&2; cat "$data/serve.log" >&2; exit 1; }
}

stop_fixture_server() {
  if [ -n "${server:-}" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "${data:-}"
}
