"""The loopback cluster of scripts/loopback-cluster.sh, faults included.

`up` once for the module (a small catalog, built on Ray), then, under a steady search
load from a second thread where it applies:
- the cluster answers as one node built from the same corpus: every query of
  benches/relevance and 200 filtered, sorted and paged searches, same hits in the same
  order, same totals, scores equal to 1e-5;
- both API nodes answer every search alike, and cursors page without duplicates;
- a search node killed with SIGKILL costs no search, the slowest under 1 s;
- the etcd leader stopped costs no search;
- a SeaweedFS volume server killed, a search node restarted with an empty disk still
  pulls and serves its shards;
- a Ray worker killed with SIGKILL mid-build: the build completes and publishes one
  generation;
then `down` stops everything (also when a test fails).

Environment: PODLENS_BIN, the `podlens` binary (default: $CARGO_TARGET_DIR/debug/podlens);
PODLENS_CLUSTER_PODCASTS, the catalog's size (default 120).
"""

from __future__ import annotations

import csv
import json
import os
import random
import re
import shutil
import signal
import sqlite3
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


def _log_tails(logs: Path, lines: int = 30) -> str:
    """The end of each process's log, and any panic or error line in it: the cluster's
    folder, logs included, goes when `up` fails, and a node's error is only written
    there (with RUST_BACKTRACE, above a backtrace longer than the tail)."""
    tails = []
    for log in sorted(logs.glob("*.log")) if logs.is_dir() else []:
        text = log.read_text(errors="replace").splitlines()
        panics = [line for line in text if "panicked" in line or line.startswith("error")]
        tails.append(f"--- {log.name}\n" + "\n".join(panics[:5] + text[-lines:]))
    return "\n".join(tails)


def _log_warnings(logs: Path, lines: int = 40) -> str:
    """The last warnings and errors of each node's log."""
    said = []
    for log in sorted(logs.glob("*.log")) if logs.is_dir() else []:
        plain = re.sub(r"\x1b\[[0-9;]*m", "", log.read_text(errors="replace"))
        text = [line for line in plain.splitlines()
                if " WARN " in line or " ERROR " in line or "panicked" in line or line.startswith("error")]
        if text:
            said.append(f"--- {log.name}\n" + "\n".join(text[-lines:]))
    return "\n".join(said)


@pytest.fixture(scope="module")
def cluster(request):
    out = Path(tempfile.mkdtemp(prefix="podlens-loopback-"))
    env = dict(os.environ, PODLENS_BIN=str(_binary()))
    podcasts = os.environ.get("PODLENS_CLUSTER_PODCASTS", "120")
    started = time.monotonic()
    up = subprocess.run(
        [str(SCRIPT), "up", "--podcasts", podcasts, "--seed", "7", "--small-model", "--out", str(out)],
        env=env, capture_output=True, text=True,
    )
    if up.returncode != 0:
        logs = _log_tails(out / "logs")
        subprocess.run([str(SCRIPT), "down", "--out", str(out)], capture_output=True, text=True)
        shutil.rmtree(out, ignore_errors=True)
        pytest.fail(f"up failed:\n{up.stdout[-3000:]}\n{up.stderr[-3000:]}\n{logs}")
    print(f"up in {time.monotonic() - started:.0f} s")
    described = json.loads((out / "cluster.json").read_text())
    described["out"] = out
    described["bin"] = env["PODLENS_BIN"]
    yield described
    if request.session.testsfailed:
        # The folder goes below: what the nodes said about a failure is printed first.
        print("\n" + _log_warnings(out / "logs"))
    started = time.monotonic()
    down = subprocess.run([str(SCRIPT), "down", "--out", str(out)], capture_output=True, text=True)
    print(f"down in {time.monotonic() - started:.0f} s: {down.stdout.strip()}")
    assert down.returncode == 0, down.stderr
    leftovers = subprocess.run(["pgrep", "-f", str(out)], capture_output=True, text=True).stdout.split()
    assert not leftovers, f"processes of the cluster still running: {leftovers}"
    # A cluster's folder holds volumes, shards and a corpus (about 1.5 GB at 120 podcasts):
    # left behind, a few runs fill a CI disk and SeaweedFS turns its volumes read-only.
    shutil.rmtree(out)


def free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def podlens(cluster, data_dir, *args) -> str:
    done = subprocess.run([cluster["bin"], "--no-progress", *args, "--data-dir", str(data_dir)],
                          capture_output=True, text=True)
    assert done.returncode == 0, f"podlens {' '.join(args[:2])}: {done.stderr[-2000:]}"
    return done.stdout


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


def relevance_queries():
    with open(REPO / "benches" / "relevance" / "queries.tsv", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return [(row["mode"], row["query"]) for row in rows if row["mode"] in ("podcasts", "episodes")]


def filtered_searches(count, seed=7):
    """`count` searches with filters, sorts and page sizes drawn from `seed`."""
    draw = random.Random(seed)
    podcast_sorts = ["relevance", "recentActivity", "title", "authorityScore", "appleReviews"]
    episode_sorts = ["relevance", "recentActivity", "title"]
    searches = []
    for _ in range(count):
        kind = draw.choice(["podcasts", "episodes"])
        targets = (["podcast-title", "podcast-description"] if kind == "podcasts"
                   else ["episode-title", "episode-description"])
        body = {"searchTerms": [{"searchTerm": draw.choice(WORDS + ["garden tips", "history of science",
                                                                    "money news", "music show"]),
                                 "searchType": "text", "searchTargets": targets,
                                 "searchTermOptions": {"matchMode": draw.choice(["optional", "must"])}}],
                "pageSize": draw.choice([5, 10, 25])}
        if draw.random() < 0.5:
            sorts = podcast_sorts if kind == "podcasts" else episode_sorts
            body["sortOrder"] = [{"field": draw.choice(sorts), "direction": draw.choice(["asc", "desc"])}]
        if draw.random() < 0.3:
            body["languages"] = ["en"]
        if draw.random() < 0.3:
            body["minTotalEpisodes"] = draw.choice([10, 30, 60])
        if kind == "episodes" and draw.random() < 0.3:
            body["hasTranscript"] = True
        searches.append((kind, body, draw.choice([1, 1, 2, 3])))
    return searches


def hits_of(answer, kind):
    key = "podcastId" if kind == "podcasts" else "episodeId"
    result = answer["data"]["result"]
    return result["total"]["value"], [(hit[key], hit.get("score")) for hit in result["hits"]]


@pytest.fixture(scope="module")
def single_node(cluster):
    """One node built from the cluster's corpus by the single-machine path (ingest of the
    whole OPML, crawl, score, the same small model, `podlens index` with the cluster's
    shard count), serving on a port of its own."""
    data = cluster["out"] / "single"
    corpus = cluster["out"] / "data" / "demo-corpus"
    shards = max(s for node in cluster["searchNodes"] for s in node["shards"]) + 1
    podlens(cluster, data, "ingest", str(corpus / "feeds.opml"), "--allow-private",
            "--concurrency", "32", "--per-host", "32")
    podlens(cluster, data, "crawl", "--allow-private", "--max-pages", "12", "--max-depth", "2",
            "--delay-ms", "0", "--per-host", "16", "--sites", "32")
    podlens(cluster, data, "score", "--charts", str(corpus / "charts"))
    model = podlens(cluster, data, "model", "vocabulary", "--text", str(corpus / "feeds"),
                    "--text", str(corpus / "transcripts")).strip().splitlines()[-1]
    podlens(cluster, data, "index", "--shards", str(shards), "--statistics", "--static-model", model)
    key = podlens(cluster, data, "keys", "create", "--email", "single@podlens.local",
                  "--plan", "admin").strip().splitlines()[-1].strip()
    port = free_port()
    log = open(cluster["out"] / "logs" / "single.log", "w")
    server = subprocess.Popen([cluster["bin"], "--no-progress", "serve", "--data-dir", str(data),
                               "--port", str(port), "--no-poll"], stdout=log, stderr=log)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if call(f"{url}/api/v1/public/health")[0] == 200:
                break
        except Exception:
            pass
        assert time.monotonic() < deadline, "the single node did not start"
        time.sleep(0.2)
    yield {"url": url, "adminKey": key}
    server.terminate()
    server.wait(timeout=30)


def test_the_cluster_answers_as_one_node_built_from_the_same_corpus(cluster, single_node):
    api = cluster["api"][0]
    one = {"adminKey": single_node["adminKey"]}
    compared = hits = 0

    def same(kind, body, pages):
        nonlocal compared, hits
        cursors = [None, None]
        for page in range(pages):
            answers = []
            for target, who, cursor in ((api, cluster, cursors[0]), (single_node["url"], one, cursors[1])):
                request = dict(body, cursor=cursor) if cursor else body
                status, answer = call(f"{target}/api/v1/search/{kind}", request,
                                      {"authorization": who["adminKey"], "content-type": "application/json"})
                assert status == 200, (kind, body, answer)
                answers.append(answer)
            (total_c, hits_c), (total_s, hits_s) = (hits_of(a, kind) for a in answers)
            where = f"{kind} {json.dumps(body)} page {page + 1}"
            assert total_c == total_s, f"{where}: totals {total_c} vs {total_s}"
            assert [h[0] for h in hits_c] == [h[0] for h in hits_s], f"{where}: hits differ"
            for at, ((_, a), (_, b)) in enumerate(zip(hits_c, hits_s)):
                if not ((a is None and b is None) or abs(a - b) <= 1e-5):
                    pytest.fail(f"{where}: hit {at + 1} scores {a} vs {b}; asked again: "
                                f"{again(kind, request_of(body, cursors), at)}")
            compared += 1
            hits += len(hits_c)
            cursors = [answers[0]["data"].get("cursor"), answers[1]["data"].get("cursor")]
            if not cursors[0] or not cursors[1]:
                assert not cursors[0] and not cursors[1], f"{where}: one side has a next page"
                break

    def request_of(body, cursors):
        return [dict(body, cursor=cursor) if cursor else body for cursor in cursors]

    def again(kind, requests, at):
        """The hit's score asked of each API node and the single node once more."""
        scores = {}
        for name, target, who, request in (
                [(f"api {i}", url, cluster, requests[0]) for i, url in enumerate(cluster["api"])]
                + [("single", single_node["url"], one, requests[1])]):
            status, answer = call(f"{target}/api/v1/search/{kind}", request,
                                  {"authorization": who["adminKey"], "content-type": "application/json"})
            hits_ = hits_of(answer, kind)[1] if status == 200 else []
            scores[name] = hits_[at][1] if at < len(hits_) else status
        return scores

    queries = relevance_queries()
    assert len(queries) > 50
    for kind, query in queries:
        targets = (["podcast-title", "podcast-description"] if kind == "podcasts"
                   else ["episode-title", "episode-description"])
        same(kind, {"searchTerms": [{"searchTerm": query, "searchType": "text", "searchTargets": targets,
                                     "searchTermOptions": {"matchMode": "optional"}}], "pageSize": 10}, 1)
    for kind, body, pages in filtered_searches(200):
        same(kind, body, pages)
    print(f"same answers: {compared} pages compared, {hits} hits")
    assert hits > 1000, f"the searches find something: {hits}"


def test_a_ray_worker_killed_mid_build_still_publishes_one_generation(cluster):
    """The batch again over the cluster's corpus, into a data directory, an object store
    and a metastore of its own; one partition task's worker killed with SIGKILL."""
    out = cluster["out"] / "rebuild"
    store = out / "store"
    ray_python = Path(os.environ.get("PODLENS_RAY_DIR",
                                     Path.home() / ".cache" / "podlens-tools" / "ray-2.60.0")) / "bin" / "python"
    corpus = cluster["out"] / "data" / "demo-corpus"
    log = open(cluster["out"] / "logs" / "rebuild.log", "w")
    build = subprocess.Popen(
        [str(ray_python), str(REPO / "cluster" / "batch" / "build.py"), "--podlens", cluster["bin"],
         "--corpus", str(corpus), "--data-dir", str(out / "data"), "--object-store", f"file://{store}",
         "--partitions", "6", "--temp-dir", str(out / "ray"), "--small-model"],
        stdout=subprocess.PIPE, stderr=log, text=True)
    killed = None
    deadline = time.monotonic() + 120
    while killed is None and build.poll() is None and time.monotonic() < deadline:
        workers = subprocess.run(["pgrep", "-f", "^ray::build_partition"], capture_output=True,
                                 text=True).stdout.split()
        if workers:
            killed = int(workers[0])
            os.kill(killed, signal.SIGKILL)
        time.sleep(0.02)
    output, _ = build.communicate(timeout=600)
    print(output)
    assert killed is not None, "no partition task was seen running"
    assert build.returncode == 0, output
    summary = json.loads((out / "data" / "build.json").read_text())
    assert len(summary["partitions"]) == 6
    assert killed not in [p["pid"] for p in summary["partitions"]], "the killed worker finished a partition"
    leftovers = list(Path(tempfile.gettempdir()).glob(f"podlens-{summary['build']}-*"))
    assert not leftovers, f"scratch folders of the build left behind: {leftovers}"
    manifests = sorted(store.glob("generations/gen-*/manifest.json"))
    with sqlite3.connect(out / "data" / "app.sqlite3") as metastore:
        rows = metastore.execute("SELECT count(*) FROM index_generations").fetchone()[0]
    assert (len(manifests), rows) == (1, 1), (manifests, rows)
    merged = [line for line in output.splitlines() if line.strip().startswith("merged ")]
    first = [line for line in (cluster["out"] / "logs" / "build.log").read_text().splitlines()
             if line.strip().startswith("merged ")]
    podcasts = [line.split(": ", 1)[1].split(" podcasts")[0] for line in merged + first]
    assert len(podcasts) == 2 and podcasts[0] == podcasts[1], (merged, first)
