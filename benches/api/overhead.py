"""What the API adds to the search engine's own time, one request at a time.

Usage: overhead.py BASE KEY PODCAST_BODIES EPISODE_BODIES [ROUNDS]

Sends every body of each file ROUNDS times (default 20) over one kept-alive
connection, after one warm-up round, and prints a table: the client's p50 and p99
latency, the engine's p50 (`totalSearchTimeMs` of the same responses, measured in the
server around the index query alone) and the p50 of the difference per request. The
difference is then split: the p50 of `totalPostProcessingTimeMs` (the engine reading
the page's stored fields and transcript passages, and the API writing the hits'
JSON), and the p50 of what remains (HTTP, the key, the usage count, the hand-offs
between threads, and this script reading the answer). The client's time includes this
script's own HTTP handling, so the figures are upper bounds of what the server adds.
When WRK_P50_PODCASTS and WRK_P50_EPISODES hold wrk's p50 for the same bodies on one
connection (a client that costs far less per answer), two more columns give it and
what remains of it after the engine's p50.
"""
import os
import http.client
import json
import statistics
import sys
import time
from urllib.parse import urlparse


def quantile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(connection, key, path, bodies, rounds):
    client, engine, added, post, rest = [], [], [], [], []
    headers = {"Authorization": key, "Content-Type": "application/json"}
    for round_number in range(rounds + 1):
        for body in bodies:
            started = time.perf_counter()
            connection.request("POST", path, body=body, headers=headers)
            response = connection.getresponse()
            payload = response.read()
            elapsed = (time.perf_counter() - started) * 1000
            if response.status != 200:
                sys.exit(f"{path} answered {response.status}: {payload[:200]!r}")
            if round_number == 0:
                continue
            times = json.loads(payload)["data"]["searchResultsStats"]["time"]
            own = times["totalSearchTimeMs"]
            client.append(elapsed)
            engine.append(own)
            added.append(elapsed - own)
            post.append(times["totalPostProcessingTimeMs"])
            rest.append(elapsed - own - times["totalPostProcessingTimeMs"])
    return client, engine, added, post, rest


def main():
    base, key, podcast_file, episode_file = sys.argv[1:5]
    rounds = int(sys.argv[5]) if len(sys.argv) > 5 else 20
    url = urlparse(base)
    connection = http.client.HTTPConnection(url.hostname, url.port)
    wrk_p50 = {
        "/api/v1/search/podcasts": os.environ.get("WRK_P50_PODCASTS"),
        "/api/v1/search/episodes": os.environ.get("WRK_P50_EPISODES"),
    }
    with_wrk = all(wrk_p50.values())
    print("| one connection | requests | client p50 ms | client p99 ms | engine p50 ms | added p50 ms | of which: stored fields and hits p50 ms | the rest p50 ms |"
          + (" wrk p50 ms | added (wrk) p50 ms |" if with_wrk else ""))
    print("|---|---:|---:|---:|---:|---:|---:|---:|" + ("---:|---:|" if with_wrk else ""))
    for path, name in [("/api/v1/search/podcasts", podcast_file), ("/api/v1/search/episodes", episode_file)]:
        bodies = [line.strip() for line in open(name) if line.strip()]
        client, engine, added, post, rest = measure(connection, key, path, bodies, rounds)
        print(
            f"| POST {path} | {len(client)} | {statistics.median(client):.2f} | {quantile(client, 0.99):.2f} "
            f"| {statistics.median(engine):.2f} | {statistics.median(added):.2f} "
            f"| {statistics.median(post):.2f} | {statistics.median(rest):.2f} |"
            + (f" {float(wrk_p50[path]):.2f} | {float(wrk_p50[path]) - statistics.median(engine):.2f} |"
               if with_wrk else "")
        )


main()
