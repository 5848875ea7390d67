"""Times Python's feedparser and podcastparser on feed files, one process, one thread:
each file is read into memory first, then parsed; prints one JSON line per parser
(files, bytes, episodes, best pass in wall and in CPU seconds, failures).

Usage: python3 python_parsers.py [--rounds N] FILE...
"""

from __future__ import annotations

import io
import json
import sys
import time


def feedparser_count(data: bytes) -> int:
    import feedparser

    return len(feedparser.parse(data).entries)


def podcastparser_count(data: bytes) -> int:
    import podcastparser

    # max_episodes=0 means all episodes.
    return len(podcastparser.parse("https://feeds.example/", io.BytesIO(data)).get("episodes", []))


def measure(name, count, feeds, rounds):
    best, best_cpu, episodes, failures = float("inf"), float("inf"), 0, []
    for round_ in range(rounds):
        total = 0
        started, cpu_started = time.perf_counter(), time.thread_time()
        for path, data in feeds:
            try:
                total += count(data)
            except Exception as error:  # noqa: BLE001 - a failure is a result here
                if round_ == 0:
                    failures.append(f"{path}: {type(error).__name__}: {error}"[:200])
        best = min(best, time.perf_counter() - started)
        best_cpu = min(best_cpu, time.thread_time() - cpu_started)
        episodes = total
    return {
        "parser": name,
        "files": len(feeds),
        "bytes": sum(len(data) for _, data in feeds),
        "episodes": episodes,
        "seconds": round(best, 6),
        "cpu_seconds": round(best_cpu, 3),
        "rounds": rounds,
        "failures": failures,
    }


def main() -> int:
    arguments = sys.argv[1:]
    rounds = 1
    if arguments[:1] == ["--rounds"]:
        rounds, arguments = int(arguments[1]), arguments[2:]
    feeds = []
    for path in arguments:
        with open(path, "rb") as handle:
            feeds.append((path, handle.read()))
    for name, count in (("podcastparser", podcastparser_count), ("feedparser", feedparser_count)):
        print(json.dumps(measure(name, count, feeds, rounds)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
