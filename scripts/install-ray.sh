#!/usr/bin/env bash
# Installs Ray 2.60.0 (Apache-2.0), the batch scheduler of a Podlens cluster
# (cluster/batch/build.py, docs/cluster.md), into a virtual environment of its own:
# ${PODLENS_RAY_DIR:-$HOME/.cache/podlens-tools/ray-2.60.0}, from the whole dependency
# closure pinned by hash in scripts/lock/ray.txt. Its Python is bin/python there.
# Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${PODLENS_RAY_DIR:-$HOME/.cache/podlens-tools/ray-2.60.0}"
if [ -f "$dir/installed" ]; then
  exit 0
fi
if [ "$(uname -m)" != "x86_64" ] || [ "$(uname -s)" != "Linux" ]; then
  echo "install-ray: the pinned wheels are for x86-64 Linux; install ray==2.60.0 by hand into a virtual environment at $dir" >&2
  exit 1
fi
if ! python3 -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; then
  echo "install-ray: the pinned wheels are for CPython 3.11; $(python3 --version) found" >&2
  exit 1
fi
# Made in place (a virtual environment's scripts name its path); `installed` marks it whole.
rm -rf "$dir"
python3 -m venv "$dir"
"$dir/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps \
  --require-hashes -r scripts/lock/ray.txt
touch "$dir/installed"
