#!/usr/bin/env bash
# A Podlens cluster on this machine's loopback (docs/cluster.md):
#
#   scripts/loopback-cluster.sh up --podcasts N --seed S [--small-model] [--shards K] [--partitions P] --out DIR
#   scripts/loopback-cluster.sh down --out DIR
#
# `up` generates the corpus `podlens demo --podcasts N --seed S` generates (the same
# shows; ids follow the corpus URLs' port) and starts on loopback: SeaweedFS (the S3
# object store: a master, two volume servers keeping every object on both, a filer and
# the S3 gateway), etcd (three members: the membership), PostgreSQL (the application
# store the API nodes share, and the metastore). It builds the catalog through the
# cluster's batch path: Ray (cluster/batch/build.py) runs ingest and crawl as one task
# per partition of the feeds (P, 4 by default, by a hash of the feed URL), each pushing
# its Parquet snapshot to the object store, then one last task merges them, scores,
# indexes in K shards (4 by default) with the generation's global statistics and
# publishes the generation (the object store, then its row in the metastore). Three
# search nodes (`podlens search-node --etcd --object-store`, each with an empty data
# directory of its own) pull the shards rendezvous hashing gives them, each shard on two
# of them; two API nodes (`podlens serve --etcd --database-url`) are the roots of every
# search.
# It returns once every shard is served twice and both API nodes answer searches,
# having written DIR/cluster.json:
#   {"api": [urls], "searchNodes": [{"url", "pid", "shards"}], "adminKey": "pl_…",
#    "etcd": [urls], "databaseUrl": "postgres://…",
#    "objectStore": {"url", "endpoint", "accessKeyId", "secretAccessKey"}, "clusterToken": "…"}
# (mode 0600: it holds an admin key and the cluster's secrets).
# Logs are in DIR/logs, pids in DIR/pids. `down` stops everything `up` started: SIGTERM,
# then SIGKILL for what is still running 10 s later.
#
# The binary is $PODLENS_BIN when set (CI passes its debug build), else a release build
# made here. What the cluster needs is installed first (PostgreSQL, etcd, SeaweedFS, Ray
# and the embedding model's source, by their scripts/install-*.sh, idempotent).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/podlens-target}"

usage() {
  echo "usage: $0 up --podcasts N --seed S [--small-model] [--shards K] [--partitions P] --out DIR | down --out DIR" >&2
  exit 2
}

command="${1:-}"
[ -n "$command" ] || usage
shift
podcasts=300
seed=42
shards=4
partitions=4
small_model=()
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --podcasts) podcasts="${2:?}"; shift 2 ;;
    --seed) seed="${2:?}"; shift 2 ;;
    --shards) shards="${2:?}"; shift 2 ;;
    --partitions) partitions="${2:?}"; shift 2 ;;
    --small-model) small_model=(--small-model); shift ;;
    --out) out="${2:?}"; shift 2 ;;
    *) echo "loopback-cluster: unknown argument $1" >&2; usage ;;
  esac
done
[ -n "$out" ] || usage

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

as_postgres() {
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$1"; else sh -c "$1"; fi
}

down() {
  local dir="$1"
  [ -d "$dir/pids" ] || { echo "loopback-cluster: nothing started under $dir"; return 0; }
  local pids=()
  for file in "$dir"/pids/*.pid; do
    [ -e "$file" ] || continue
    local pid
    pid=$(cat "$file")
    if kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid" 2>/dev/null || true
      pids+=("$pid")
    fi
  done
  local waited=0
  while [ "$waited" -lt 100 ]; do
    local alive=0
    for pid in "${pids[@]}"; do
      kill -0 "$pid" 2>/dev/null && alive=1
    done
    [ "$alive" = 0 ] && break
    sleep 0.1
    waited=$((waited + 1))
  done
  for pid in "${pids[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then
      echo "loopback-cluster: pid $pid ignored SIGTERM for 10 s; killing it" >&2
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done
  if [ -f "$dir/postgres.dir" ]; then
    local pg pg_bin
    pg=$(cat "$dir/postgres.dir")
    pg_bin=$(cat "$dir/postgres.bin")
    as_postgres "'$pg_bin/pg_ctl' -D '$pg/data' -m fast -w stop" >/dev/null 2>&1 || true
    rm -rf "$pg"
    rm -f "$dir/postgres.dir" "$dir/postgres.bin"
  fi
  rm -rf "$dir/pids"
  echo "loopback-cluster: stopped"
}

case "$command" in
  down) down "$out"; exit 0 ;;
  up) ;;
  *) usage ;;
esac

mkdir -p "$out"
out="$(cd "$out" && pwd)"
if [ -d "$out/pids" ]; then
  echo "loopback-cluster: $out holds a running cluster; stop it first with: $0 down --out $out" >&2
  exit 1
fi
# A failed start stops what it started.
trap 'status=$?; if [ "$status" -ne 0 ]; then echo "loopback-cluster: up failed; logs in $out/logs" >&2; down "$out" >/dev/null; fi' EXIT

# What the cluster runs on (each installer is idempotent; the rest of scripts/setup.sh,
# the web app's packages among them, is not needed here).
for installer in postgres etcd seaweedfs ray model; do
  bash "$ROOT/scripts/install-$installer.sh"
done
if [ -n "${PODLENS_BIN:-}" ]; then
  podlens="$PODLENS_BIN"
else
  (cd "$ROOT" && cargo build --release --locked -p podlens-tools --bin podlens)
  podlens="$CARGO_TARGET_DIR/release/podlens"
fi
mkdir -p "$out/logs" "$out/pids"
data="$out/data"
token=$(python3 -c 'import secrets; print(secrets.token_hex(24))')

ray_python="${PODLENS_RAY_DIR:-$HOME/.cache/podlens-tools/ray-2.60.0}/bin/python"
[ -x "$ray_python" ] || { echo "loopback-cluster: no Ray at $ray_python (scripts/install-ray.sh)" >&2; exit 1; }
weed="${PODLENS_SEAWEEDFS_DIR:-$HOME/.cache/podlens-tools/seaweedfs-4.48}/bin/weed"
[ -x "$weed" ] || { echo "loopback-cluster: no SeaweedFS at $weed (scripts/install-seaweedfs.sh)" >&2; exit 1; }

# The first API node's port first: the corpus's URLs name it (it serves them). Every other
# port is picked just before its process starts.
api_ports=("$(free_port)")
# What an earlier run left (its processes are gone: `down` removed the pids).
rm -rf "$data" "$out"/search-* "$out"/etcd-* "$out/seaweedfs" "$out/cluster.json" "$out/corpus-server" "$out/ray"
# The corpus `podlens demo --podcasts N --seed S` generates (as of today, as the demo's),
# served where the first API node serves it afterwards (the feeds' and the sites' URLs
# name that port).
echo "loopback-cluster: generating $podcasts podcasts (seed $seed) into $data"
"$podlens" --no-progress generate --podcasts "$podcasts" --seed "$seed" --transcript-share 0.2 \
  --chart-days 30 --as-of "$(date -u +%F)" --base-url "http://127.0.0.1:${api_ports[0]}/demo-corpus" \
  --out "$data/demo-corpus" >"$out/logs/build.log" 2>&1 || {
  tail -n 20 "$out/logs/build.log" >&2
  exit 1
}

start() {
  local name="$1"
  shift
  "$@" >"$out/logs/$name.log" 2>&1 &
  echo $! >"$out/pids/$name.pid"
}

# SeaweedFS: one process with a master, a volume server, a filer and the S3 gateway,
# and a second volume server (replication 001: every object on both volume servers).
# A volume server turns its volumes read-only below its free-space floor (1% of the disk by
# default: 2.5 GB of a 250 GB disk); a loopback cluster holds megabytes, so its floor is 256 MiB.
# On SIGTERM a volume server stops its heartbeats, then waits -preStopSeconds (10 by default,
# for a master to route around it) before it stops: 1 s on loopback. (The combined
# `weed server` does not finish its shutdown at all: `down` kills it after 10 s.)
mkdir -p "$out/seaweedfs/server" "$out/seaweedfs/volume-2"
master="$(free_port)"
master_grpc="$(free_port)"
filer="$(free_port)"
s3_port="$(free_port)"
s3_secret=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
cat >"$out/seaweedfs/s3.json" <<JSON
{"identities": [{"name": "podlens", "credentials": [{"accessKey": "podlens", "secretKey": "$s3_secret"}],
  "actions": ["Admin", "Read", "Write", "List", "Tagging"]}]}
JSON
start seaweedfs "$weed" server -dir="$out/seaweedfs/server" -ip=127.0.0.1 -ip.bind=127.0.0.1 \
  -master.port="$master" -master.port.grpc="$master_grpc" -master.defaultReplication=001 \
  -master.volumeSizeLimitMB=64 -volume.port="$(free_port)" -volume.port.grpc="$(free_port)" \
  -volume.max=16 -volume.minFreeSpace=256MiB -volume.preStopSeconds=1 -filer -filer.port="$filer" -filer.port.grpc="$(free_port)" \
  -s3 -s3.port="$s3_port" -s3.port.grpc="$(free_port)" -s3.port.iceberg=0 -s3.port.lance=0 \
  -s3.config="$out/seaweedfs/s3.json"
start seaweedfs-volume-2 "$weed" volume -ip=127.0.0.1 -ip.bind=127.0.0.1 -port="$(free_port)" \
  -port.grpc="$(free_port)" -dir="$out/seaweedfs/volume-2" -max=16 -minFreeSpace=256MiB -preStopSeconds=1 \
  -master="127.0.0.1:$master.$master_grpc"
export AWS_ENDPOINT_URL="http://127.0.0.1:$s3_port" AWS_ALLOW_HTTP=true AWS_REGION=us-east-1 \
  AWS_ACCESS_KEY_ID=podlens AWS_SECRET_ACCESS_KEY="$s3_secret"
object_store="s3://podlens/generations"

# etcd: three members on loopback.
etcd_clients=()
initial=()
peers=()
for i in 1 2 3; do
  etcd_clients+=("http://127.0.0.1:$(free_port)")
  peers+=("http://127.0.0.1:$(free_port)")
  initial+=("etcd-$i=${peers[$((i - 1))]}")
done
initial_cluster=$(IFS=,; echo "${initial[*]}")
for i in 1 2 3; do
  start "etcd-$i" etcd --name "etcd-$i" --data-dir "$out/etcd-$i" \
    --listen-client-urls "${etcd_clients[$((i - 1))]}" \
    --advertise-client-urls "${etcd_clients[$((i - 1))]}" \
    --listen-peer-urls "${peers[$((i - 1))]}" \
    --initial-advertise-peer-urls "${peers[$((i - 1))]}" \
    --initial-cluster "$initial_cluster" --initial-cluster-state new \
    --initial-cluster-token "podlens-$(basename "$out")"
done
etcd=$(IFS=,; echo "${etcd_clients[*]}")

# PostgreSQL: a cluster of its own (initdb refuses root: it belongs to `postgres` then).
pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
pg=$(mktemp -d /tmp/podlens-cluster-pg.XXXXXX)
echo "$pg" >"$out/postgres.dir"
echo "$pg_bin" >"$out/postgres.bin"
[ "$(id -u)" = 0 ] && chown postgres "$pg"
pg_port=$(free_port)
as_postgres "'$pg_bin/initdb' -D '$pg/data' -A trust -U postgres" >/dev/null
as_postgres "'$pg_bin/pg_ctl' -D '$pg/data' -l '$pg/log' -w -o \"-p $pg_port -k $pg -c listen_addresses=127.0.0.1 -c max_connections=200\" start" >/dev/null
database_url="postgres://postgres@127.0.0.1:$pg_port/postgres"

for _ in $(seq 1 100); do
  curl -fsS "${etcd_clients[0]}/health" 2>/dev/null | grep -q '"health":"true"' && break
  sleep 0.2
done
"$podlens" --no-progress migrate --data-dir "$data" --database-url "$database_url" >/dev/null
# The bucket is a folder of the filer's /buckets.
bucket=""
for _ in $(seq 1 300); do
  if [ -z "$bucket" ]; then
    # 201: made; 409: made before
    code=$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$filer/buckets/podlens/" || true)
    case "$code" in 201|409) bucket=made ;; esac
  fi
  [ -n "$bucket" ] && curl -sS -o /dev/null "$AWS_ENDPOINT_URL" 2>/dev/null && break
  sleep 0.2
done
[ -n "$bucket" ] || { echo "loopback-cluster: SeaweedFS did not start (logs/seaweedfs-*.log)" >&2; exit 1; }
# The batch on Ray (cluster/batch/build.py): ingest and crawl per partition of the
# feeds, each partition's snapshot pushed to the object store; then, once, the merge,
# the scores, the index in $shards shards with the global statistics, and the publish.
mkdir -p "$out/corpus-server"
ln -s "$data/demo-corpus" "$out/corpus-server/demo-corpus"
start corpus-server "$podlens" --no-progress serve --data-dir "$out/corpus-server" \
  --port "${api_ports[0]}" --no-poll
for _ in $(seq 1 100); do
  curl -fsS -o /dev/null "http://127.0.0.1:${api_ports[0]}/demo-corpus/feeds.opml" 2>/dev/null && break
  sleep 0.2
done
echo "loopback-cluster: building the catalog on Ray ($partitions partitions) into $data"
if ! "$ray_python" "$ROOT/cluster/batch/build.py" --podlens "$podlens" --corpus "$data/demo-corpus" \
  --data-dir "$data" --object-store "$object_store" --database-url "$database_url" \
  --partitions "$partitions" --shards "$shards" --temp-dir "$out/ray" "${small_model[@]}" \
  2>>"$out/logs/build.log" | tee -a "$out/logs/build.log"; then
  tail -n 20 "$out/logs/build.log" >&2
  exit 1
fi
kill -TERM "$(cat "$out/pids/corpus-server.pid")"
while kill -0 "$(cat "$out/pids/corpus-server.pid")" 2>/dev/null; do sleep 0.1; done
rm -f "$out/pids/corpus-server.pid"
admin_key=$("$podlens" --no-progress keys create --email admin@podlens.local --plan admin \
  --data-dir "$data" --database-url "$database_url" | tail -n 1 | tr -d '[:space:]')

launch() { # kind (search|api), number, port
  case "$1" in
  search)
    start "search-$2" "$podlens" --no-progress search-node --data-dir "$out/search-$2" --port "$3" \
      --name "search-$2" --etcd "$etcd" --cluster-token "$token" \
      --object-store "$object_store" --database-url "$database_url"
    ;;
  api)
    start "api-$2" "$podlens" --no-progress serve --data-dir "$data" --port "$3" \
      --database-url "$database_url" --etcd "$etcd" --cluster-token "$token" --no-poll
    ;;
  esac
}
search_ports=()
for i in 1 2 3; do
  search_ports+=("$(free_port)")
  launch search "$i" "${search_ports[$((i - 1))]}"
done
api_ports+=("$(free_port)")
for i in 1 2; do
  launch api "$i" "${api_ports[$((i - 1))]}"
done
# A port picked free can be taken before its node binds it (Ray's processes and every
# other program draw from the same ephemeral range): such a node is started again on
# another port. A node that stops for any other reason stops the start, with its log.
deadline=$((SECONDS + 120))
for kind in search api; do
  count=3
  [ "$kind" = api ] && count=2
  for ((i = 1; i <= count; i++)); do
    name="$kind-$i"
    tries=0
    until grep -q "listening on http" "$out/logs/$name.log" 2>/dev/null; do
      if ! kill -0 "$(cat "$out/pids/$name.pid")" 2>/dev/null; then
        if grep -q "cannot listen on" "$out/logs/$name.log" && [ "$tries" -lt 5 ]; then
          tries=$((tries + 1))
          port=$(free_port)
          echo "loopback-cluster: $name's port was taken; starting it on $port"
          if [ "$kind" = search ]; then search_ports[i - 1]=$port; else api_ports[i - 1]=$port; fi
          launch "$kind" "$i" "$port"
          continue
        fi
        echo "loopback-cluster: $name stopped while starting:" >&2
        # Its error line first: with RUST_BACKTRACE a backtrace follows it.
        grep -m 3 -E "^error|panicked" "$out/logs/$name.log" >&2
        tail -n 20 "$out/logs/$name.log" >&2
        exit 1
      fi
      if [ "$SECONDS" -gt "$deadline" ]; then
        echo "loopback-cluster: $name not listening after 120 s:" >&2
        tail -n 20 "$out/logs/$name.log" >&2
        exit 1
      fi
      sleep 0.2
    done
  done
done

echo "loopback-cluster: waiting until every shard is served twice and both API nodes answer"
OBJECT_STORE="$object_store" OUT="$out" TOKEN="$token" ADMIN_KEY="$admin_key" ETCD="$etcd" DATABASE_URL="$database_url" \
SEARCH_PORTS="${search_ports[*]}" API_PORTS="${api_ports[*]}" REPLICAS=2 python3 - <<'PY'
import json, os, sys, time, urllib.request

out = os.environ["OUT"]
token = os.environ["TOKEN"]
key = os.environ["ADMIN_KEY"]
search = [f"http://127.0.0.1:{p}" for p in os.environ["SEARCH_PORTS"].split()]
api = [f"http://127.0.0.1:{p}" for p in os.environ["API_PORTS"].split()]
replicas = int(os.environ["REPLICAS"])
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def call(url, body=None, headers=None):
    request = urllib.request.Request(url, data=None if body is None else json.dumps(body).encode(),
                                     headers=headers or {})
    with opener.open(request, timeout=5) as response:
        return response.status, json.loads(response.read() or b"null")


def served():
    shards = {}
    for url in search:
        status = call(url + "/internal/v1/node", headers={"x-podlens-cluster-token": token})[1]
        generations = status.get("generations") or []
        shards[url] = sorted(generations[-1]["shards"]) if generations else []
    return shards


def stopped():
    """The first started process that is no longer running, with its log's last lines."""
    for file in sorted(os.listdir(f"{out}/pids")):
        name = file.removesuffix(".pid")
        with open(f"{out}/pids/{file}") as f:
            pid = int(f.read())
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            with open(f"{out}/logs/{name}.log", errors="replace") as f:
                lines = f.readlines()
            # Its error line first: with RUST_BACKTRACE a backtrace follows it.
            first = [line for line in lines if line.startswith("error") or "panicked" in line][:3]
            return f"{name} (pid {pid}) stopped:\n" + "".join(first + lines[-20:])
    return None


deadline = time.time() + 180
last = None
while True:
    gone = stopped()
    if gone:
        sys.exit(f"loopback-cluster: {gone}")
    try:
        shards = served()
        count = max((s for ss in shards.values() for s in ss), default=-1) + 1
        copies = [sum(s in ss for ss in shards.values()) for s in range(count)]
        ready = count > 0 and all(c == replicas for c in copies)
        if ready:
            for url in api:
                status, _ = call(url + "/api/v1/search/podcasts",
                                 {"searchTerms": [{"searchTerm": "the", "searchType": "text",
                                                   "searchTargets": ["podcast-title"],
                                                   "searchTermOptions": {"matchMode": "optional"}}]},
                                 {"authorization": key, "content-type": "application/json"})
                ready = ready and status == 200
        if ready:
            break
        last = shards
    except Exception as error:  # not up yet
        last = repr(error)
    if time.time() > deadline:
        sys.exit(f"loopback-cluster: not healthy after 180 s (last: {last})")
    time.sleep(0.5)

pids = {}
for i, url in enumerate(search, 1):
    with open(f"{out}/pids/search-{i}.pid") as f:
        pids[url] = int(f.read())
cluster = {
    "api": api,
    "searchNodes": [{"url": url, "pid": pids[url], "shards": shards[url]} for url in search],
    "adminKey": key,
    "etcd": os.environ["ETCD"].split(","),
    "databaseUrl": os.environ["DATABASE_URL"],
    "objectStore": {"url": os.environ["OBJECT_STORE"], "endpoint": os.environ["AWS_ENDPOINT_URL"],
                    "accessKeyId": os.environ["AWS_ACCESS_KEY_ID"],
                    "secretAccessKey": os.environ["AWS_SECRET_ACCESS_KEY"]},
    "clusterToken": token,
}
# It holds an admin key and the cluster's secrets: readable by its owner only.
descriptor = os.open(f"{out}/cluster.json", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
with os.fdopen(descriptor, "w") as f:
    json.dump(cluster, f, indent=2)
print(f"loopback-cluster: healthy; {out}/cluster.json")
for node in cluster["searchNodes"]:
    print(f"  search node {node['url']} (pid {node['pid']}): shards {node['shards']}")
for url in api:
    print(f"  API node {url}")
PY
