"""Prints the wrk runs of run.sh and hybrid.sh as one Markdown table.

Usage: table.py RESULTS CLOCK_TICKS_PER_SECOND

RESULTS holds one line per run, "name<TAB>report.lua's JSON<TAB>server CPU ticks"; a
run named "GET /api/v1/public/health…" is the health route, and each later run's rate
is also given as a share of the latest one (a dash without one). Exits 1 when any run
saw an error.
"""
import json
import sys

rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
ticks_per_second = int(sys.argv[2])
print("| endpoint | requests | requests/s | share of health | p50 ms | p90 ms | p99 ms | server CPU ms/request | errors |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
failed = False
health = None
for name, line, ticks in rows:
    result = json.loads(line)
    if name.startswith("GET /api/v1/public/health"):
        health = result["rps"]
    errors = result["non_2xx"] + result["connect"] + result["read"] + result["write"] + result["timeout"]
    share = f"{100 * result['rps'] / health:.1f}%" if health else "–"
    cpu = 1000 * int(ticks) / ticks_per_second / max(result["requests"], 1)
    print(f"| {name} | {result['requests']} | {result['rps']:.0f} | {share} | {result['p50_ms']:.1f} | {result['p90_ms']:.1f} | {result['p99_ms']:.1f} | {cpu:.3f} | {errors} |")
    if errors:
        print(f"errors in {name}: {result}", file=sys.stderr)
        failed = True
sys.exit(1 if failed else 0)
