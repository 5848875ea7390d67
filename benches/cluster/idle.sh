#!/usr/bin/env bash
# What a loopback cluster costs while nobody searches, and how long it takes to stop:
# `scripts/loopback-cluster.sh up`, then, from 30 s after it is healthy, each process's
# CPU (from /proc/PID/stat) over IDLE_SECONDS and its resident memory; then `down`, timed.
#
#   benches/cluster/idle.sh [PODCASTS]       (default 120; IDLE_SECONDS=60)
#   PODLENS_BIN=…                            as for scripts/loopback-cluster.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
podcasts="${1:-120}"
idle="${IDLE_SECONDS:-60}"
out="$(mktemp -d /tmp/podlens-idle-XXXXXX)"
trap '"$root/scripts/loopback-cluster.sh" down --out "$out" >/dev/null 2>&1 || true; rm -rf "$out"' EXIT
"$root/scripts/loopback-cluster.sh" up --podcasts "$podcasts" --seed 42 --small-model --out "$out" >&2
sleep 30
OUT="$out" IDLE="$idle" python3 - <<'PY'
import os, time
from pathlib import Path
out, idle = Path(os.environ["OUT"]), float(os.environ["IDLE"])
tick = os.sysconf("SC_CLK_TCK")
pids = {p.stem: int(p.read_text()) for p in sorted((out / "pids").glob("*.pid"))}
def cpu(pid):
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / tick
def rss(pid):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
before = {name: cpu(pid) for name, pid in pids.items()}
time.sleep(idle)
print(f"| process | CPU over {idle:.0f} s idle (% of a core) | resident MB |")
print("|---|---|---|")
total = 0.0
for name, pid in pids.items():
    share = (cpu(pid) - before[name]) / idle * 100
    total += share
    print(f"| {name} | {share:.2f}% | {rss(pid):.0f} |")
print(f"| **all** | **{total:.2f}%** | |")
PY
started=$(date +%s.%N)
"$root/scripts/loopback-cluster.sh" down --out "$out" >&2
python3 -c "import time; print(f'down: {time.time() - $started:.1f} s')"
