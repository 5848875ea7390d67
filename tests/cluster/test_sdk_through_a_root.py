"""The official SDK's suite (tests/sdk) through an API node that is a cluster's root.

The SDK tests' fixture catalog, indexed in 4 shards with the generation's global
statistics, served by two search nodes (`podlens search-node --shards 0,1` and `2,3`);
an API node (`podlens serve --search-nodes A,B`) is the root of every search and serves
the rest. tests/sdk then runs against it as against any running server
(PODLENS_TEST_URL, PODLENS_TEST_KEY); every skip is printed with its reason.

Environment: PODLENS_BIN and PODLENS_FIXTURE_BIN as for tests/sdk.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _binary(env_name: str, default: Path) -> Path:
    path = Path(os.environ.get(env_name, default))
    if not path.is_file():
        pytest.fail(f"{env_name}: {path} does not exist; build it first")
    return path


def _target() -> Path:
    return Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))


def _listening(process: subprocess.Popen) -> str:
    for _ in range(200):
        line = process.stdout.readline()
        if not line:
            break
        match = re.search(r"listening on (http://127\.0\.0\.1:\d+)", line)
        if match:
            return match.group(1)
    pytest.fail("a podlens process did not start")


def _wait_for_searches(url: str, key: str, timeout: float = 60) -> None:
    """Until the root answers a search (it learns the nodes' generation first: 503 until then)."""
    body = json.dumps({"searchTerms": [{"searchTerm": "the", "searchType": "text",
                                        "searchTargets": ["podcast-title"]}]}).encode()
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    deadline = time.monotonic() + timeout
    while True:
        request = urllib.request.Request(f"{url}/api/v1/search/podcasts", data=body,
                                         headers={"authorization": key, "content-type": "application/json"})
        try:
            with opener.open(request, timeout=5) as response:
                if response.status == 200:
                    return
        except urllib.error.HTTPError as error:
            if error.code != 503:
                pytest.fail(f"the root answered a search with {error.code}: {error.read()[:300]!r}")
        if time.monotonic() > deadline:
            pytest.fail("the root never answered a search")
        time.sleep(0.2)


def test_the_sdk_suite_passes_through_a_cluster_root():
    podlens = str(_binary("PODLENS_BIN", _target() / "debug" / "podlens"))
    fixture = _binary("PODLENS_FIXTURE_BIN", _target() / "debug" / "examples" / "build_fixture_catalog")
    env = dict(os.environ, PODLENS_NO_PROGRESS="true")
    processes = []
    with tempfile.TemporaryDirectory(prefix="podlens-sdk-root-") as directory:
        data = Path(directory) / "data"
        subprocess.run([str(fixture), str(data)], check=True, cwd=REPO / "api", capture_output=True)
        subprocess.run([podlens, "index", "--shards", "4", "--statistics", "--no-vectors",
                        "--data-dir", str(data)], check=True, capture_output=True, env=env)
        key = subprocess.run([podlens, "keys", "create", "--email", "business@example.com", "--plan",
                              "business", "--data-dir", str(data)], check=True, capture_output=True,
                             text=True, env=env).stdout.strip().splitlines()[-1]
        token = secrets.token_hex(16)
        try:
            nodes = []
            for shards in ("0,1", "2,3"):
                node = subprocess.Popen([podlens, "search-node", "--data-dir", str(data), "--port", "0",
                                         "--shards", shards, "--cluster-token", token],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
                processes.append(node)
                nodes.append(_listening(node))
            root = subprocess.Popen([podlens, "serve", "--data-dir", str(data), "--port", "0", "--no-poll",
                                     "--search-nodes", ",".join(nodes), "--cluster-token", token],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
            processes.append(root)
            url = _listening(root)
            _wait_for_searches(url, key)
            suite = subprocess.run(
                [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", str(REPO / "tests" / "sdk")],
                env=dict(env, PODLENS_TEST_URL=url, PODLENS_TEST_KEY=key), capture_output=True, text=True)
        finally:
            for process in processes:
                process.terminate()
            for process in processes:
                process.wait(timeout=30)
    summary = suite.stdout.strip().splitlines()
    print("\n".join(line for line in summary if line.startswith("SKIPPED")))
    print(summary[-1] if summary else suite.stderr[-2000:])
    assert suite.returncode == 0, suite.stdout[-4000:] + suite.stderr[-2000:]
    passed = int(re.search(r"(\d+) passed", summary[-1]).group(1))
    assert passed >= 30, summary[-1]
