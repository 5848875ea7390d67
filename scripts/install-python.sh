#!/usr/bin/env bash
# Installs the Python packages the Python test suites need (idempotent): the official
# Pod Engine SDK the API is wire-compatible with, pytest, and for the ingest
# differential check and benchmark feedparser, podcastparser and duckdb (to read the
# Parquet snapshot), schemathesis (the API against its own OpenAPI document) and aiosmtpd
# (a real SMTP server on loopback for the mail test) and python-docx (an independent
# reader of the DOCX guest profiles).
set -euo pipefail
pinned=("podengine==0.3.2" "feedparser==6.0.14" "podcastparser==0.6.11" "duckdb==2.0.0" "schemathesis==4.32.5" "aiosmtpd==1.4.6" "python-docx==1.1.2")
if python3 -c 'import pytest' 2>/dev/null && python3 - "${pinned[@]}" <<'PY' 2>/dev/null; then
import importlib.metadata as metadata
import sys
sys.exit(any(metadata.version(name) != version for name, version in (p.split("==") for p in sys.argv[1:])))
PY
  exit 0
fi
python3 -m pip install --quiet --disable-pip-version-check "${pinned[@]}" "pytest>=8"
