#!/usr/bin/env bash
# Installs the Python packages the SDK compatibility tests need (idempotent): the
# official Pod Engine SDK the API is wire-compatible with, and pytest.
set -euo pipefail
if python3 -c 'import podengine, pytest' 2>/dev/null \
  && [ "$(python3 -c 'import importlib.metadata as m; print(m.version("podengine"))')" = "0.3.2" ]; then
  exit 0
fi
python3 -m pip install --quiet --disable-pip-version-check "podengine==0.3.2" "pytest>=8"
