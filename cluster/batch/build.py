"""A Podlens catalog built on Ray, partition by partition, then published once.

    build.py --podlens BIN --corpus DIR --data-dir DIR --object-store URL
             --database-url URL [--partitions P] [--shards K] [--small-model]
             [--ray-address ADDR] [--build ID]

The feeds of the corpus's OPML are split into P partitions by a hash of their URL (a
podcast's id follows the `podcast:guid` inside its feed, which only the feed tells). One
Ray task per partition runs `podlens ingest` and `podlens crawl` over its feeds in a
scratch folder of its own and pushes the partition's Parquet snapshot to the object
store under a name unique to the attempt (`podlens catalog push`). Ray places the tasks
and runs a task again when its worker is lost; the `podlens` child dies with its worker
(PR_SET_PDEATHSIG), so an abandoned attempt leaves nothing but objects nobody names.

What needs the whole catalog runs once, in a last task, in --data-dir: the partitions
merged in order (`podlens catalog merge`: copies of a show across feeds are resolved
there and by the index), the scores (charts rank podcasts against each other), the
static model's vocabulary with --small-model, the index in K shards with the
generation's global statistics (`podlens index --statistics`), and `podlens publish`,
which uploads the generation and records it in the metastore: one generation per build.

Without --ray-address, Ray runs on this machine for the build's duration, on loopback.
The object store's credentials come from the AWS_* variables and reach the tasks
through their runtime environment.
"""

import argparse
import ctypes
import glob
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
import xml.etree.ElementTree as ElementTree

import ray

# The variables the `podlens` stages read, passed on to every task.
FORWARDED = (
    "AWS_ENDPOINT_URL",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_REGION",
    "AWS_ALLOW_HTTP",
    "PODLENS_MODEL_DIR",
    "XDG_CACHE_HOME",
    "HOME",
)


def feed_urls(opml):
    """The feed URLs of an OPML file, in its order, each once."""
    urls = []
    for outline in ElementTree.parse(opml).iter("outline"):
        url = outline.get("xmlUrl")
        if url and url not in urls:
            urls.append(url)
    return urls


def partition_of(url, partitions):
    """The partition of a feed: its URL's SHA-256, as a number, modulo the partitions."""
    return int.from_bytes(hashlib.sha256(url.encode()).digest()[:8], "big") % partitions


def die_with_parent():
    """Runs in the child before exec: SIGKILL when the task's worker dies."""
    PR_SET_PDEATHSIG = 1
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def podlens(binary, data_dir, *args):
    """Runs one `podlens` stage over `data_dir`; its output on failure, in the error."""
    command = [binary, "--no-progress", *args, "--data-dir", data_dir]
    done = subprocess.run(command, capture_output=True, text=True, preexec_fn=die_with_parent)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args[:2])} failed: {done.stderr.strip()[-2000:]}")
    return done.stdout


@ray.remote(max_retries=3)
def build_partition(binary, object_store, build, index, urls):
    """Ingest and crawl one partition's feeds; push its snapshot. Its name and figures."""
    started = time.monotonic()
    name = f"p{index:04d}-{uuid.uuid4().hex[:12]}"
    # An earlier attempt of this partition on this machine died with its worker (Ray
    # retries a task only then): its scratch folder is nobody's.
    for stale in glob.glob(os.path.join(tempfile.gettempdir(), f"podlens-{build}-p{index:04d}-*")):
        shutil.rmtree(stale, ignore_errors=True)
    with tempfile.TemporaryDirectory(prefix=f"podlens-{build}-{name}-") as scratch:
        data_dir = os.path.join(scratch, "data")
        opml = os.path.join(scratch, "feeds.opml")
        with open(opml, "w") as f:
            f.write('<?xml version="1.0"?><opml version="2.0"><body>')
            for url in urls:
                escaped = url.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
                f.write(f'<outline type="rss" xmlUrl="{escaped}"/>')
            f.write("</body></opml>")
        podlens(binary, data_dir, "ingest", opml, "--allow-private", "--concurrency", "32",
                "--per-host", "32")
        podlens(binary, data_dir, "crawl", "--allow-private", "--max-pages", "12",
                "--max-depth", "2", "--delay-ms", "0", "--per-host", "16", "--sites", "32")
        podlens(binary, data_dir, "catalog", "push", "--object-store", object_store,
                "--build", build, "--partition", name)
    return {"partition": name, "index": index, "feeds": len(urls), "pid": os.getpid(),
            "seconds": round(time.monotonic() - started, 1)}


@ray.remote(max_retries=2)
def finish(binary, data_dir, corpus, object_store, database_url, build, partitions, shards,
           small_model):
    """Merge the partitions, score, index and publish: once, over the whole catalog."""
    started = time.monotonic()
    # A fresh catalog at every attempt: an attempt whose worker died left a merge behind.
    for leftover in ("catalog.duckdb", "catalog.duckdb.wal"):
        path = os.path.join(data_dir, leftover)
        if os.path.exists(path):
            os.remove(path)
    names = [p["partition"] for p in sorted(partitions, key=lambda p: p["index"])]
    steps = [podlens(binary, data_dir, "catalog", "merge", "--object-store", object_store,
                     "--build", build, *names).strip()]
    steps.append(podlens(binary, data_dir, "score", "--charts",
                         os.path.join(corpus, "charts")).strip().splitlines()[-1:])
    text = [os.path.join(corpus, d) for d in ("feeds", "transcripts")
            if os.path.isdir(os.path.join(corpus, d))]
    if small_model:
        text_args = [a for path in text for a in ("--text", path)]
        model = podlens(binary, data_dir, "model", "vocabulary", *text_args).strip().splitlines()[-1]
    else:
        text_args = [a for path in text for a in ("--frequency-text", path)]
        podlens(binary, data_dir, "model", "build", *text_args)
        model = None
    index = ["index", "--shards", str(shards), "--statistics"]
    if model:
        index += ["--static-model", model]
    steps.append(podlens(binary, data_dir, *index).strip().splitlines()[-1:])
    metastore = ["--database-url", database_url] if database_url else []
    steps.append(podlens(binary, data_dir, "publish", "--object-store", object_store,
                         *metastore).strip())
    return {"steps": steps, "seconds": round(time.monotonic() - started, 1)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--podlens", required=True, help="the podlens binary")
    parser.add_argument("--corpus", required=True, help="the corpus folder (its feeds.opml)")
    parser.add_argument("--data-dir", required=True, help="where the whole catalog is built")
    parser.add_argument("--object-store", required=True, help="s3://bucket/prefix or file:///dir")
    parser.add_argument("--database-url", help="the metastore (PostgreSQL; default: the data "
                        "directory's app.sqlite3)")
    parser.add_argument("--partitions", type=int, default=4)
    parser.add_argument("--shards", type=int, default=4)
    parser.add_argument("--small-model", action="store_true")
    parser.add_argument("--ray-address", help="a running Ray cluster (default: Ray on this machine)")
    parser.add_argument("--cpus", type=int, default=2, help="CPUs of the local Ray (no --ray-address)")
    parser.add_argument("--temp-dir", help="Ray's session folder (default: Ray's, /tmp/ray)")
    parser.add_argument("--build", default=None, help="the build's name (default: a new one)")
    args = parser.parse_args()
    if args.partitions < 1:
        parser.error("--partitions must be at least 1")
    binary = os.path.abspath(args.podlens)
    corpus = os.path.abspath(args.corpus)
    data_dir = os.path.abspath(args.data_dir)
    build = args.build or time.strftime("%Y%m%dT%H%M%S") + "-" + uuid.uuid4().hex[:8]

    urls = feed_urls(os.path.join(corpus, "feeds.opml"))
    shares = [[] for _ in range(args.partitions)]
    for url in urls:
        shares[partition_of(url, args.partitions)].append(url)

    env = {name: os.environ[name] for name in FORWARDED if name in os.environ}
    started = time.monotonic()
    if args.ray_address:
        ray.init(address=args.ray_address, runtime_env={"env_vars": env},
                 log_to_driver=False)
    else:
        # On loopback: Ray would otherwise advertise the machine's interface address.
        ray.init(num_cpus=args.cpus, _node_ip_address="127.0.0.1", include_dashboard=False,
                 object_store_memory=100 * 1024 * 1024, runtime_env={"env_vars": env},
                 log_to_driver=False,
                 _temp_dir=os.path.abspath(args.temp_dir) if args.temp_dir else None)
    print(f"build {build}: {len(urls)} feeds in {args.partitions} partitions on Ray "
          f"({time.monotonic() - started:.1f} s to start)", flush=True)
    try:
        tasks = [build_partition.remote(binary, args.object_store, build, index, share)
                 for index, share in enumerate(shares) if share]
        partitions = []
        pending = list(tasks)
        while pending:
            done, pending = ray.wait(pending)
            for result in ray.get(done):
                partitions.append(result)
                print(f"  partition {result['index']}: {result['feeds']} feeds in "
                      f"{result['seconds']} s as {result['partition']}", flush=True)
        result = ray.get(finish.remote(binary, data_dir, corpus, args.object_store,
                                       args.database_url, build, partitions, args.shards,
                                       args.small_model))
        for step in result["steps"]:
            for line in step if isinstance(step, list) else [step]:
                print(f"  {line}", flush=True)
        print(f"build {build}: published in {time.monotonic() - started:.1f} s", flush=True)
        summary = {"build": build, "partitions": partitions, "seconds":
                   round(time.monotonic() - started, 1)}
        with open(os.path.join(data_dir, "build.json"), "w") as f:
            json.dump(summary, f, indent=2)
    finally:
        ray.shutdown()
        # What attempts killed on this machine left (a task cleans its own otherwise).
        for stale in glob.glob(os.path.join(tempfile.gettempdir(), f"podlens-{build}-*")):
            shutil.rmtree(stale, ignore_errors=True)


if __name__ == "__main__":
    try:
        main()
    except (RuntimeError, OSError, ElementTree.ParseError, ray.exceptions.RayError) as error:
        lines = str(error).strip().splitlines()
        sys.exit(f"build: {lines[-1] if lines else type(error).__name__}")
