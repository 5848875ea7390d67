"""The loopback cluster of scripts/loopback-cluster.sh, faults included.

`up` once for the module (a small catalog), then, under a steady search load from a
second thread where it applies:
- both API nodes answer every search alike, and cursors page without duplicates;
- a search node killed with SIGKILL costs no search, the slowest under 1 s;
- the etcd leader stopped costs no search;
- a SeaweedFS volume server killed, a search node restarted with an empty disk still
  pulls and serves its shards;
then `down` stops everything (also when a test fails).

Environment: PODLENS_BIN, the `podlens` binary (default: $CARGO_TARGET_DIR/debug/podlens);
PODLENS_CLUSTER_PODCASTS, the catalog's size (default 120).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "loopback-cluster.sh"
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))
WORDS = ["garden", "history", "the", "science", "music", "show", "news", "money"]


def _binary() -> Path:
    default = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target")) / "debug" / "podlens"
    path = Path(os.environ.get("PODLENS_BIN", default))
    if not path.is_file():
        pytest.fail(f"PODLENS_BIN: {path} does not exist; build it first")
    return path


def call(url: str, body=None, headers=None, timeout=10):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with OPENER.open(request, timeout=timeout) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")


@pytest.fixture(scope="module")
def cluster():
    out = Path(tempfile.mkdtemp(prefix="podlens-loopback-"))
    env = dict(os.environ, PODLENS_BIN=str(_binary()))
    podcasts = os.environ.get("PODLENS_CLUSTER_PODCASTS", "120")
    started = time.monotonic()
    up = subprocess.run(
        [str(SCRIPT), "up", "--podcasts", podcasts, "--seed", "7", "--small-model", "--out", str(out)],
        env=env, capture_output=True, text=True,
    )
    if up.returncode != 0:
        pytest.fail(f"up failed:\n{up.stdout[-3000:]}\n{up.stderr[-3000:]}")
    print(f"up in {time.monotonic() - started:.0f} s")
    described = json.loads((out / "cluster.json").read_text())
    described["out"] = out
    described["bin"] = env["PODLENS_BIN"]
    yield described
    started = time.monotonic()
    down = subprocess.run([str(SCRIPT), "down", "--out", str(out)], capture_output=True, text=True)
    print(f"down in {time.monotonic() - started:.0f} s: {down.stdout.strip()}")
    assert down.returncode == 0, down.stderr
    leftovers = subprocess.run(["pgrep", "-f", str(out)], capture_output=True, text=True).stdout.split()
    assert not leftovers, f"processes of the cluster still running: {leftovers}"


def search(cluster, api: str, kind: str, word: str, cursor=None, timeout=10):
    targets = (["podcast-title", "podcast-description"] if kind == "podcasts"
               else ["episode-title", "episode-description"])
    body = {"searchTerms": [{"searchTerm": word, "searchType": "text", "searchTargets": targets,
                             "searchTermOptions": {"matchMode": "optional"}}], "pageSize": 10}
    if cursor:
        body["cursor"] = cursor
    return call(f"{api}/api/v1/search/{kind}", body,
                {"authorization": cluster["adminKey"], "content-type": "application/json"}, timeout)


def without_volatile(value):
    if isinstance(value, dict):
        return {k: without_volatile(v) for k, v in value.items()
                if k not in ("searchId", "cursor") and "took" not in k.lower() and "time" not in k.lower()}
    if isinstance(value, list):
        return [without_volatile(v) for v in value]
    return value


class Load:
    """Searches through every API node in turn from a second thread until stopped."""

    def __init__(self, cluster):
        self.cluster = cluster
        self.stop = threading.Event()
        self.failures: list[str] = []
        self.latencies: list[float] = []
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        n = 0
        while not self.stop.is_set():
            api = self.cluster["api"][n % len(self.cluster["api"])]
            kind = "podcasts" if n % 2 == 0 else "episodes"
            started = time.monotonic()
            try:
                status, answer = search(self.cluster, api, kind, WORDS[n % len(WORDS)])
            except Exception as error:  # a refused or cut connection is a failed search
                status, answer = 0, repr(error)
            self.latencies.append(time.monotonic() - started)
            if status != 200:
                self.failures.append(f"{status}: {str(answer)[:200]}")
            n += 1

    def __enter__(self):
        self.thread.start()
        time.sleep(0.5)
        return self

    def __exit__(self, *_):
        self.stop.set()
        self.thread.join()

    def p99(self) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def node_status(cluster, url):
    status, answer = call(f"{url}/internal/v1/node", headers={"x-podlens-cluster-token": cluster["clusterToken"]},
                          timeout=3)
    assert status == 200, answer
    generations = answer.get("generations") or []
    return sorted(generations[-1]["shards"]) if generations else []


def wait_for_replicas(cluster, urls, copies, timeout=30):
    deadline = time.monotonic() + timeout
    while True:
        try:
            shards = {url: node_status(cluster, url) for url in urls}
            count = max((s for ss in shards.values() for s in ss), default=-1) + 1
            if count > 0 and all(sum(s in ss for ss in shards.values()) == copies for s in range(count)):
                return shards
        except Exception:  # a node restarting
            shards = None
        if time.monotonic() > deadline:
            pytest.fail(f"shards never served {copies} times by {urls}: {shards}")
        time.sleep(0.25)


def test_both_api_nodes_answer_alike_and_cursors_page_without_duplicates(cluster):
    first, second = cluster["api"]
    hits = 0
    for word in WORDS:
        for kind in ("podcasts", "episodes"):
            seen = set()
            cursors = [None, None]
            for _page in range(3):
                status, one = search(cluster, first, kind, word, cursors[0])
                assert status == 200, one
                status, two = search(cluster, second, kind, word, cursors[1])
                assert status == 200, two
                assert without_volatile(one["data"]) == without_volatile(two["data"]), (kind, word)
                page = one["data"]["result"]["hits"]
                ids = [hit.get("podcastId") if kind == "podcasts" else hit.get("episodeId") for hit in page]
                assert not seen.intersection(ids), f"{kind} {word}: a hit came back on a later page"
                seen.update(ids)
                hits += len(page)
                cursors = [one["data"].get("cursor"), two["data"].get("cursor")]
                if not cursors[0]:
                    break
    assert hits > 50, f"the searches find something: {hits}"


def test_a_search_node_killed_costs_no_search(cluster):
    victim = cluster["searchNodes"][0]
    survivors = [node["url"] for node in cluster["searchNodes"][1:]]
    with Load(cluster) as load:
        os.kill(victim["pid"], signal.SIGKILL)
        wait_for_replicas(cluster, survivors, 2)
        time.sleep(1)
    print(f"SIGKILL: {len(load.latencies)} searches, {len(load.failures)} failed, p99 {load.p99() * 1000:.0f} ms")
    assert len(load.latencies) > 20
    assert not load.failures, load.failures[:5]
    assert load.p99() < 1.0, f"p99 during the failover {load.p99():.2f} s"


def leader_pid(cluster):
    """The etcd member that leads, by asking each its status (etcd's JSON gateway)."""
    for i, endpoint in enumerate(cluster["etcd"], 1):
        status, answer = call(f"{endpoint}/v3/maintenance/status", {}, {"content-type": "application/json"})
        if status == 200 and answer.get("leader") == answer.get("header", {}).get("member_id"):
            return int((cluster["out"] / "pids" / f"etcd-{i}.pid").read_text())
    pytest.fail("no etcd member says it leads")


def test_the_etcd_leader_stopped_costs_no_search(cluster):
    pid = leader_pid(cluster)
    with Load(cluster) as load:
        os.kill(pid, signal.SIGTERM)
        time.sleep(6)  # past the nodes' lease: they renew through the other members
    print(f"etcd leader stopped: {len(load.latencies)} searches, {len(load.failures)} failed, "
          f"p99 {load.p99() * 1000:.0f} ms")
    assert len(load.latencies) > 20
    assert not load.failures, load.failures[:5]


def test_a_search_node_restarted_with_an_empty_disk_after_a_volume_server_died_serves_its_shards(cluster):
    volume = int((cluster["out"] / "pids" / "seaweedfs-volume-2.pid").read_text())
    os.kill(volume, signal.SIGKILL)
    node = cluster["searchNodes"][1]
    data_dir = cluster["out"] / "search-2"
    os.kill(node["pid"], signal.SIGTERM)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        try:
            os.kill(node["pid"], 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    subprocess.run(["rm", "-rf", str(data_dir)], check=True)
    port = node["url"].rsplit(":", 1)[1]
    store = cluster["objectStore"]
    env = dict(os.environ, AWS_ENDPOINT_URL=store["endpoint"], AWS_ALLOW_HTTP="true",
               AWS_REGION="us-east-1", AWS_ACCESS_KEY_ID=store["accessKeyId"],
               AWS_SECRET_ACCESS_KEY=store["secretAccessKey"])
    log = open(cluster["out"] / "logs" / "search-2-restarted.log", "w")
    restarted = subprocess.Popen(
        [cluster["bin"], "--no-progress", "search-node", "--data-dir", str(data_dir), "--port", port,
         "--name", "search-2", "--etcd", ",".join(cluster["etcd"]), "--cluster-token", cluster["clusterToken"],
         "--object-store", store["url"], "--database-url", cluster["databaseUrl"]],
        env=env, stdout=log, stderr=log)
    # `down` stops it with the rest.
    (cluster["out"] / "pids" / "search-2.pid").write_text(str(restarted.pid))
    live = [n["url"] for n in cluster["searchNodes"][1:]]
    shards = wait_for_replicas(cluster, live, 2, timeout=60)
    assert shards[node["url"]], "the restarted node serves shards"
    on_disk = sorted(int(p.name.split("-")[1]) for p in data_dir.glob("index/gen-*/shard-*"))
    assert on_disk == shards[node["url"]], (on_disk, shards)
    status, answer = search(cluster, cluster["api"][0], "episodes", "the")
    assert status == 200, answer
