"""One shard count's measurements for benches/cluster/run.sh (a JSON line on stdout),
or, with --report RUNS CATALOG RESULTS, the table of every run written into RESULTS.md.

The queries: every podcast and episode query of benches/relevance/queries.tsv, in turn
over podcasts and episodes, title and description, until QUERIES; sent one at a time
over one kept-alive connection per server. Both servers must answer the same hits and
totals, or the run fails."""

import csv
import http.client
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CLOCK = os.sysconf("SC_CLK_TCK")


def queries(count):
    with open(REPO / "benches" / "relevance" / "queries.tsv", newline="") as f:
        texts = [row["query"] for row in csv.DictReader(f, delimiter="\t")
                 if row["mode"] in ("podcasts", "episodes")]
    out = []
    for i in range(count):
        kind = "podcasts" if i % 2 == 0 else "episodes"
        targets = (["podcast-title", "podcast-description"] if kind == "podcasts"
                   else ["episode-title", "episode-description"])
        out.append((kind, {"searchTerms": [{"searchTerm": texts[i % len(texts)], "searchType": "text",
                                            "searchTargets": targets}], "pageSize": 10}))
    return out


class Client:
    def __init__(self, url, key):
        host, port = url.removeprefix("http://").split(":")
        self.connection = http.client.HTTPConnection(host, int(port), timeout=60)
        self.headers = {"authorization": key, "content-type": "application/json"}

    def search(self, kind, body):
        started = time.perf_counter()
        self.connection.request("POST", f"/api/v1/search/{kind}", json.dumps(body), self.headers)
        response = self.connection.getresponse()
        payload = response.read()
        elapsed = time.perf_counter() - started
        if response.status != 200:
            sys.exit(f"{kind} {body}: {response.status} {payload[:300]!r}")
        result = json.loads(payload)["data"]["result"]
        key = "podcastId" if kind == "podcasts" else "episodeId"
        return elapsed, (result["total"]["value"], [hit[key] for hit in result["hits"]])


def cpu_seconds(pids):
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / CLOCK


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def measure():
    env = os.environ
    shards = int(env["SHARDS_NOW"])
    single = Client(env["SINGLE"], env["KEY"])
    root = Client(env["ROOT_URL"], env["KEY"])
    node_pids = [int(p) for p in env["NODE_PIDS"].split()]
    root_pid, single_pid = int(env["ROOT_PID"]), int(env["SINGLE_PID"])
    work = queries(int(env["QUERIES"]))
    for kind, body in work[:20]:  # warm both (page cache, first-use caches)
        single.search(kind, body)
        root.search(kind, body)
    times = {"single": [], "root": []}
    cpu = {"nodes": 0.0, "root": 0.0, "single": 0.0}
    mismatches = 0
    for order in (("single", "root"), ("root", "single")):
        for side in order:
            client = single if side == "single" else root
            before = (cpu_seconds(node_pids), cpu_seconds([root_pid]), cpu_seconds([single_pid]))
            answers = []
            for kind, body in work:
                elapsed, answer = client.search(kind, body)
                times[side].append(elapsed)
                answers.append(answer)
            after = (cpu_seconds(node_pids), cpu_seconds([root_pid]), cpu_seconds([single_pid]))
            if side == "root":
                cpu["nodes"] += after[0] - before[0]
                cpu["root"] += after[1] - before[1]
            else:
                cpu["single"] += after[2] - before[2]
            if side == order[0]:
                first_answers = answers
            else:
                mismatches += sum(a != b for a, b in zip(first_answers, answers))
    if mismatches:
        sys.exit(f"{shards} shards: the root and the single node answered {mismatches} searches apart")
    searches = len(times["root"])
    index = Path(env["DATA"]) / "index"
    generation = max(index.glob("gen-*"), key=lambda p: int(p.name.split("-")[1]))
    index_bytes = sum(f.stat().st_size for f in generation.rglob("*") if f.is_file())
    podcasts, episodes = indexed(env["DATA"])
    return {
        "shards": shards,
        "build_seconds": float(env["BUILD_SECONDS"]),
        "queries": searches,
        "podcasts": podcasts,
        "episodes": episodes,
        "index_bytes": index_bytes,
        "single_p50_ms": statistics.median(times["single"]) * 1000,
        "single_p99_ms": percentile(times["single"], 0.99) * 1000,
        "root_p50_ms": statistics.median(times["root"]) * 1000,
        "root_p99_ms": percentile(times["root"], 0.99) * 1000,
        "node_cpu_ms_per_search": cpu["nodes"] / searches * 1000,
        "root_cpu_ms_per_search": cpu["root"] / searches * 1000,
        "single_cpu_ms_per_search": cpu["single"] / len(times["single"]) * 1000,
        "node_rss_mb": [round(rss_mb(pid), 1) for pid in node_pids],
        "single_rss_mb": round(rss_mb(single_pid), 1),
        "root_rss_mb": round(rss_mb(root_pid), 1),
    }


def indexed(data):
    """The published generation's podcasts and episodes, as `podlens status` says."""
    done = subprocess.run([os.environ["PODLENS_BIN"], "status", "--json", "--data-dir", data],
                          capture_output=True, text=True, check=True)
    index = json.loads(done.stdout)["index"]
    return index["podcasts"], index["episodes"]


def report(runs_path, catalog_path, results_path):
    runs = [json.loads(line) for line in Path(runs_path).read_text().splitlines() if line.strip()]
    catalog = Path(catalog_path).read_text().strip() if Path(catalog_path).exists() else ""
    lines = [
        "| shards | build s | single p50 / p99 ms | root p50 / p99 ms | root ÷ single (p50) | "
        "search-node CPU ms per search | root CPU ms per search | single CPU ms per search | "
        "index bytes per episode | search-node RSS MB (each, shards halved) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for run in runs:
        per_episode = run["index_bytes"] / run["episodes"] if run.get("episodes") else float("nan")
        lines.append(
            f"| {run['shards']} | {run['build_seconds']:.0f} | {run['single_p50_ms']:.2f} / "
            f"{run['single_p99_ms']:.2f} | {run['root_p50_ms']:.2f} / {run['root_p99_ms']:.2f} | "
            f"{run['root_p50_ms'] / run['single_p50_ms']:.2f}× | {run['node_cpu_ms_per_search']:.2f} | "
            f"{run['root_cpu_ms_per_search']:.2f} | {run['single_cpu_ms_per_search']:.2f} | "
            f"{per_episode:.0f} | {', '.join(f'{m:.0f}' for m in run['node_rss_mb'])} |")
    header = (f"Run {time.strftime('%Y-%m-%d')}: {runs[0]['podcasts']} podcasts, {runs[0]['episodes']} episodes, "
              f"{runs[0]['queries']} queries per side, two alternating passes; {catalog}.")
    marker = "<!-- run.sh writes everything below this line -->"
    text = Path(results_path).read_text() if Path(results_path).exists() else marker + "\n"
    text = text.split(marker)[0] + marker + "\n\n" + header + "\n\n" + "\n".join(lines) + "\n"
    Path(results_path).write_text(text)
    print("\n".join([header, ""] + lines))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--report":
        report(*sys.argv[2:5])
    else:
        print(json.dumps(measure()))
