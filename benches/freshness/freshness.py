#!/usr/bin/env python3
"""Freshness of `podlens serve`: how long from "the feed has a new episode" to "search
finds it", and what keeping up costs.

A feed server on loopback serves FEEDS weekly shows (ten episodes each, a week apart,
the newest within the last week), with ETags and 304s. Half of them declare a WebSub
hub, which this script also plays: it verifies the subscriber's intent as a hub does,
and pushes a signed delivery when one of its feeds changes. The catalog is read from
the feed server by `podlens ingest`, indexed by `podlens index`, and served by `podlens
serve --allow-private --public-url …` with its default schedule.

The server first follows the new catalog: each feed is polled once within ten minutes
(and its hub subscribed to). After WARMUP_SECONDS of that, over RUN_SECONDS, EVENTS new
episodes appear at uniformly random times in randomly chosen feeds, and EVENTS // 3
more in polled-only feeds that release on habit: their ten past episodes came out a
week apart at one time of the week (20 minutes early to 40 late), and the new one comes
out at that time, during the run. Each new episode has a unique word in its title; the
script asks the episode search API for that word once a second and records the delay
until it is found. It reports the delay's p50/p90/p99/max for pushed feeds, for
polled-only feeds at random times and for polled-only feeds on habit (those not found
by the end count as "not yet", with the time they have waited), the polls the server
made (per hour per 1,000 feeds, from the feed server's log), and the server's CPU time.

Usage: freshness.py PODLENS_BIN [FEEDS] [EVENTS] [RUN_SECONDS] [WARMUP_SECONDS]
"""

import hashlib
import hmac
import http.server
import json
import os
import random
import re
import signal
import socketserver
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from email.utils import format_datetime
from datetime import datetime, timedelta, timezone

BIN = sys.argv[1]
FEEDS = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
EVENTS = int(sys.argv[3]) if len(sys.argv) > 3 else 60
RUN_SECONDS = int(sys.argv[4]) if len(sys.argv) > 4 else 600
WARMUP_SECONDS = int(sys.argv[5]) if len(sys.argv) > 5 else 660
random.seed(7)

lock = threading.Lock()
script_start = time.time()
now = datetime.now(timezone.utc)
# Feed i: title, items (guid, title, date) newest first, whether it has a hub.
feeds = {}
for i in range(FEEDS):
    newest = now - timedelta(hours=random.uniform(1, 160))
    items = [(f"f{i}-e{n}", f"Weekly chat number {10 - n} of show {i}", newest - timedelta(days=7 * n)) for n in range(10)]
    feeds[i] = {"title": f"Freshness Show {i}", "items": items, "hub": i % 2 == 0}
# Polled-only feeds that release on habit: the time of their next release (seconds since
# the epoch), in the run; their past episodes at that time of the week, give or take.
HABITS = EVENTS // 3
habit_release = {}
for i in random.sample([i for i in feeds if not feeds[i]["hub"]], HABITS):
    # Early in the run, so that each can be found before it ends (a window is polled
    # every 10 minutes).
    at = script_start + WARMUP_SECONDS + 60 + random.uniform(0, max(60, RUN_SECONDS - 720))
    release = datetime.fromtimestamp(at, timezone.utc)
    feeds[i]["items"] = [(f"f{i}-h{n}", f"Weekly chat number {11 - n} of show {i}",
                          release - timedelta(days=7 * n) + timedelta(minutes=random.uniform(-20, 40)))
                         for n in range(1, 11)]
    habit_release[i] = at
polls = []  # (time, feed, status)
subscriptions = {}  # topic -> (callback, secret)
hub_base = None
feed_base = None


def render(i):
    feed = feeds[i]
    hub = ""
    if feed["hub"]:
        hub = (f'<atom:link rel="hub" href="{hub_base}/hub"/>'
               f'<atom:link rel="self" href="{feed_base}/feeds/{i}.xml"/>')
    items = "".join(
        f"<item><guid>{guid}</guid><title>{title}</title><description>{title}.</description>"
        f"<pubDate>{format_datetime(date)}</pubDate>"
        f'<enclosure url="https://media.example.test/{guid}.mp3" type="audio/mpeg" length="1000"/></item>'
        for guid, title, date in feed["items"])
    return (f'<?xml version="1.0"?><rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">'
            f"<channel><title>{feed['title']}</title><link>https://shows.example.test/{i}</link>"
            f"<description>A weekly show about freshness number {i}</description><language>en</language>"
            f"{hub}{items}</channel></rss>").encode()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        match = re.fullmatch(r"/feeds/(\d+)\.xml", self.path)
        if not match or int(match.group(1)) not in feeds:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        i = int(match.group(1))
        with lock:
            body = render(i)
        etag = '"' + hashlib.sha1(body).hexdigest() + '"'
        status = 304 if self.headers.get("If-None-Match") == etag else 200
        with lock:
            polls.append((time.time(), i, status))
        self.send_response(status)
        self.send_header("ETag", etag)
        if status == 304:
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_header("Content-Type", "application/rss+xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        form = dict(urllib.parse.parse_qsl(self.rfile.read(length).decode()))
        if self.path != "/hub" or form.get("hub.mode") != "subscribe":
            self.send_response(400)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(202)
        self.send_header("Content-Length", "0")
        self.end_headers()
        threading.Thread(target=verify, args=(form,), daemon=True).start()


def verify(form):
    """The hub's verification of intent, then the subscription is live."""
    challenge = os.urandom(8).hex()
    query = urllib.parse.urlencode({"hub.mode": "subscribe", "hub.topic": form["hub.topic"],
                                    "hub.challenge": challenge, "hub.lease_seconds": form.get("hub.lease_seconds", "864000")})
    try:
        with urllib.request.urlopen(f"{form['hub.callback']}?{query}", timeout=10) as response:
            if response.read().decode() == challenge:
                with lock:
                    subscriptions[form["hub.topic"]] = (form["hub.callback"], form["hub.secret"])
    except Exception as error:  # a refused verification leaves the feed unsubscribed
        print(f"verification failed: {error}", file=sys.stderr)


def push(i):
    topic = f"{feed_base}/feeds/{i}.xml"
    with lock:
        subscription = subscriptions.get(topic)
        body = render(i)
    if not subscription:
        return False
    callback, secret = subscription
    signature = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    request = urllib.request.Request(callback, data=body, method="POST",
                                     headers={"X-Hub-Signature": signature, "Content-Type": "application/rss+xml"})
    with urllib.request.urlopen(request, timeout=10):
        return True


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


def main():
    global hub_base, feed_base
    server = Server(("127.0.0.1", 0), Handler)
    feed_base = hub_base = f"http://127.0.0.1:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    data = tempfile.mkdtemp(prefix="podlens-freshness-")
    env = dict(os.environ, PODLENS_NO_PROGRESS="true")
    opml = os.path.join(data, "feeds.opml")
    with open(opml, "w") as out:
        out.write('<?xml version="1.0"?><opml version="2.0"><body>')
        out.write("".join(f'<outline type="rss" xmlUrl="{feed_base}/feeds/{i}.xml"/>' for i in feeds))
        out.write("</body></opml>")
    started = time.time()
    subprocess.run([BIN, "ingest", "--data-dir", data, "--allow-private", opml], check=True, env=env,
                   stdout=subprocess.DEVNULL)
    subprocess.run([BIN, "index", "--data-dir", data], check=True, env=env, stdout=subprocess.DEVNULL)
    key = subprocess.run([BIN, "keys", "create", "--data-dir", data, "--email", "bench@podlens.local",
                          "--plan", "admin"], check=True, env=env, capture_output=True, text=True).stdout.split()[-1]
    print(f"catalog of {FEEDS} weekly feeds ingested and indexed in {time.time() - started:.0f} s")
    # The server's port must be known for --public-url: pick a free one.
    import socket
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    base = f"http://127.0.0.1:{port}"
    log = open(os.path.join(data, "serve.log"), "w")
    serve = subprocess.Popen([BIN, "serve", "--data-dir", data, "--port", str(port), "--allow-private",
                              "--public-url", base], env=env, stdout=log, stderr=log)
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(f"{base}/api/v1/public/health", timeout=1)
                break
            except Exception:
                time.sleep(0.1)
        warm = time.time()
        time.sleep(WARMUP_SECONDS)
        with lock:
            first_polled = len({p[1] for p in polls if p[0] >= warm})
            subscribed = len(subscriptions)
        print(f"warm-up: {WARMUP_SECONDS} s, {first_polled} of {FEEDS} feeds polled, {subscribed} hubs subscriptions confirmed")
        measure(base, key, serve.pid, data)
    finally:
        serve.send_signal(signal.SIGTERM)
        serve.wait(timeout=60)
        server.shutdown()


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def found(base, key, word):
    body = json.dumps({"searchTerms": [{"searchTerm": word, "searchType": "text",
                                        "searchTargets": ["episode-title"],
                                        "searchTermOptions": {"matchMode": "must"}}]}).encode()
    request = urllib.request.Request(f"{base}/api/v1/search/episodes", data=body, method="POST",
                                     headers={"Authorization": key, "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return bool(json.load(response)["data"]["result"]["hits"])


def measure(base, key, pid, data):
    cpu_before = cpu_seconds(pid)
    start = time.time()
    schedule = sorted(random.uniform(30, RUN_SECONDS * 0.8) for _ in range(EVENTS))
    chosen = random.sample(sorted(i for i in feeds if i not in habit_release), EVENTS)
    habits = sorted((at, i) for i, at in habit_release.items())
    pending = []  # (added_at, feed, word, kind)
    results = []  # (kind, delay or None, waited)

    def release(i, kind):
        word = "fresh" + os.urandom(5).hex()
        with lock:
            feeds[i]["items"].insert(0, (f"f{i}-{word}", f"Breaking {word} news", datetime.now(timezone.utc)))
        added = time.time()
        if kind == "random" and feeds[i]["hub"] and push(i):
            kind = "pushed"
        pending.append((added, i, word, kind))

    while time.time() - start < RUN_SECONDS:
        now_s = time.time() - start
        while schedule and schedule[0] <= now_s:
            schedule.pop(0)
            release(chosen.pop(), "random")
        while habits and habits[0][0] <= time.time():
            release(habits.pop(0)[1], "habit")
        still = []
        for added, i, word, kind in pending:
            if found(base, key, word):
                results.append((kind, time.time() - added, None))
            else:
                still.append((added, i, word, kind))
        pending = still
        time.sleep(1)
    end = time.time()
    for added, i, word, kind in pending:
        results.append((kind, None, end - added))
    cpu = cpu_seconds(pid) - cpu_before
    hours = (end - start) / 3600
    with lock:
        in_run = [p for p in polls if p[0] >= start]
        subscribed = len(subscriptions)
    full = sum(1 for p in in_run if p[2] == 200)
    print(f"run: {end - start:.0f} s, {EVENTS} new episodes at random times and {HABITS} on habit; {FEEDS} feeds, "
          f"{FEEDS // 2 + FEEDS % 2} declare a hub ({subscribed} subscribed by the end)")
    print()
    print("| feeds | new episodes | found | delay p50 s | p90 s | p99 s | max s | not found by the end (waited s) |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for label, kind in (("pushed by their WebSub hub", "pushed"), ("polled only, at a random time", "random"),
                        ("polled only, released on habit", "habit")):
        rows = [r for r in results if r[0] == kind]
        delays = sorted(r[1] for r in rows if r[1] is not None)
        waited = sorted(round(r[2]) for r in rows if r[1] is None)
        def q(p):
            return f"{delays[min(len(delays) - 1, int(p * len(delays)))]:.1f}" if delays else "-"
        print(f"| {label} | {len(rows)} | {len(delays)} | {q(0.5)} | {q(0.9)} | {q(0.99)} | "
              f"{(f'{delays[-1]:.1f}' if delays else '-')} | {len(waited)} ({', '.join(map(str, waited[:8]))}{'…' if len(waited) > 8 else ''}) |")
    print()
    print(f"polls during the run: {len(in_run)} ({full} full answers, {len(in_run) - full} 304s) = "
          f"{len(in_run) / hours / FEEDS * 1000:.0f} polls per hour per 1,000 feeds")
    print(f"server CPU: {cpu:.1f} s over {end - start:.0f} s ({100 * cpu / (end - start):.1f}% of one core)")


if __name__ == "__main__":
    main()
