#!/usr/bin/env bash
# Installs Debian's etcd server (3.4), the membership engine of a Podlens cluster
# (docs/cluster.md): the cluster tests start their own on loopback. Idempotent.
set -euo pipefail
if command -v etcd >/dev/null 2>&1; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-etcd: no etcd and no apt-get; install etcd 3.4 (etcd-server) by hand" >&2
  exit 1
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends etcd-server >/dev/null
# Debian may start one of its own; the tests start theirs on other ports.
service etcd stop >/dev/null 2>&1 || true
