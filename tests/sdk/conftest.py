"""Starts the real `podlens` server over a fixture catalog for the SDK tests.

Environment:
  PODLENS_TEST_URL, PODLENS_TEST_KEY
                       use an already running server and a business/agency/admin key
                       instead of starting one over the fixture catalog
  PODLENS_BIN          the `podlens` binary (default: $CARGO_TARGET_DIR/debug/podlens)
  PODLENS_FIXTURE_BIN  the `build_fixture_catalog` example of podlens-api
                       (default: $CARGO_TARGET_DIR/debug/examples/build_fixture_catalog)
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _target_dir() -> Path:
    return Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))


def _binary(env_name: str, default: Path) -> Path:
    path = Path(os.environ.get(env_name, default))
    if not path.is_file():
        pytest.fail(f"{env_name}: {path} does not exist; build it first (see tests/sdk/README.md)")
    return path


EXTERNAL_URL = os.environ.get("PODLENS_TEST_URL")
EXTERNAL_KEY = os.environ.get("PODLENS_TEST_KEY")


@pytest.fixture(scope="session")
def external() -> bool:
    return bool(EXTERNAL_URL and EXTERNAL_KEY)


@pytest.fixture(scope="session")
def data_dir():
    fixture_bin = _binary("PODLENS_FIXTURE_BIN", _target_dir() / "debug" / "examples" / "build_fixture_catalog")
    with tempfile.TemporaryDirectory(prefix="podlens-sdk-") as directory:
        subprocess.run([str(fixture_bin), directory], check=True, cwd=REPO / "api")
        yield Path(directory)


def _podlens(*args: str, data_dir: Path) -> subprocess.CompletedProcess:
    podlens = _binary("PODLENS_BIN", _target_dir() / "debug" / "podlens")
    return subprocess.run(
        [str(podlens), *args, "--data-dir", str(data_dir)],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "PODLENS_NO_PROGRESS": "true"},
    )


@pytest.fixture(scope="session")
def api_keys(request):
    """Keys created through `podlens keys create` (the key is the last line printed)."""
    if EXTERNAL_URL and EXTERNAL_KEY:
        return {"business": EXTERNAL_KEY}
    data_dir = request.getfixturevalue("data_dir")
    keys = {}
    for plan in ("business", "free"):
        done = _podlens("keys", "create", "--email", f"{plan}@example.com", "--plan", plan, data_dir=data_dir)
        keys[plan] = done.stdout.strip().splitlines()[-1]
    return keys


@pytest.fixture(scope="session")
def server(request, api_keys):
    if EXTERNAL_URL and EXTERNAL_KEY:
        yield EXTERNAL_URL.rstrip("/")
        return
    data_dir = request.getfixturevalue("data_dir")
    podlens = _binary("PODLENS_BIN", _target_dir() / "debug" / "podlens")
    process = subprocess.Popen(
        [str(podlens), "serve", "--data-dir", str(data_dir), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        line = process.stdout.readline()
        match = re.search(r"listening on (http://127\.0\.0\.1:\d+)", line)
        if not match:
            pytest.fail(f"server did not start: {line!r}")
        yield match.group(1)
    finally:
        process.terminate()
        process.wait(timeout=10)
