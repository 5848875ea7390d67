#!/usr/bin/env bash
# Installs what building and testing Podlens needs on a fresh machine (idempotent).
set -euo pipefail
cd "$(dirname "$0")/.."
for script in scripts/install-*.sh; do
  [ -e "$script" ] || continue
  bash "$script"
done
