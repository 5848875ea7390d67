#!/usr/bin/env bash
# Dependency checks (run by scripts/test.sh): cargo-deny's licences, bans and sources
# over the workspace and the fuzz crate (deny.toml), then its RustSec advisories and
# `npm audit` of web/ when their databases can be reached — both live on hosts this
# project's machines may not reach; when they cannot be reached the script says so
# plainly and goes on (SECURITY.md, "Known gaps"); a vulnerability found fails it.
# The web lock file is checked offline: integrity hashes, registry sources, licences.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "-- cargo deny: licences, bans, sources (workspace)"
cargo deny --log-level error check licenses bans sources
if [ -f fuzz/Cargo.toml ]; then
  echo "-- cargo deny: licences, bans, sources (fuzz/)"
  cargo deny --log-level error --manifest-path fuzz/Cargo.toml check licenses bans sources
fi

echo "-- cargo deny: advisories"
if timeout 120 cargo deny --log-level error fetch db >/dev/null 2>&1 \
  && ls "$HOME"/.cargo/advisory-dbs/*/crates >/dev/null 2>&1; then
  cargo deny --log-level error check --disable-fetch advisories
else
  echo "NOTICE: the RustSec advisory database cannot be" \
    "fetched from this machine: Rust advisories NOT checked"
fi

echo "-- web: package-lock.json (integrity, sources, licences)"
python3 scripts/check_npm_lock.py web/package-lock.json

echo "-- web: npm audit"
audit="$(cd web && npm audit --json 2>/dev/null || true)"
python3 - "$audit" <<'PY'
import json, sys
try:
    report = json.loads(sys.argv[1])
except ValueError:
    report = {"message": "no answer"}
if "metadata" not in report:
    print("NOTICE: the npm advisory endpoint cannot be reached from this machine "
          f"({report.get('message', report.get('error', 'unknown error'))}): npm advisories NOT checked")
    sys.exit(0)
counts = report["metadata"]["vulnerabilities"]
print("npm audit:", ", ".join(f"{n} {level}" for level, n in counts.items()))
sys.exit(1 if counts.get("high", 0) + counts.get("critical", 0) + counts.get("moderate", 0) else 0)
PY
