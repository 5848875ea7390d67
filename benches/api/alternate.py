"""Two servers in turn, one request at a time: compare.sh's and typed.sh's side-by-side
measurement. Each request goes to one server and then the other; which goes first
alternates from round to round."""
import http.client
import json
import sys
from time import perf_counter
from urllib.parse import urlparse


def alternate(urls, key, requests, rounds, warm_up=2):
    """Sends every (path, body) of `requests` to both servers of `urls`, over `warm_up`
    untimed rounds and then `rounds` timed ones. Yields (index of the request, index of
    the server, the client's time in ms, the answer's `searchResultsStats.time`) for each
    timed request; exits with the answer when one is not 200."""
    connections = [http.client.HTTPConnection(urlparse(u).hostname, urlparse(u).port) for u in urls]
    headers = {"Authorization": key, "Content-Type": "application/json"}
    for round_number in range(warm_up + rounds):
        order = (0, 1) if round_number % 2 else (1, 0)
        for index, (path, body) in enumerate(requests):
            for which in order:
                started = perf_counter()
                connections[which].request("POST", path, body=body, headers=headers)
                response = connections[which].getresponse()
                payload = response.read()
                elapsed = (perf_counter() - started) * 1000
                if response.status != 200:
                    sys.exit(f"{path} answered {response.status}: {payload[:200]!r}")
                if round_number >= warm_up:
                    times = json.loads(payload)["data"]["searchResultsStats"]["time"]
                    yield index, which, elapsed, times
