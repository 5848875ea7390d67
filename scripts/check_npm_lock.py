"""Offline checks of web/package-lock.json, run by scripts/check-deps.sh: every package
is pinned by a sha512 integrity hash and comes from the npm registry (no git, file or
tarball URL sources), and every package's licence is on the allow-list below or is a
reviewed exception (SECURITY.md, "Dependencies")."""

import json
import sys
from pathlib import Path

ALLOWED = {
    "0BSD", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause", "CC0-1.0", "ISC", "MIT", "MIT-0",
    "(MIT OR CC0-1.0)", "MIT AND ISC AND BSD-3-Clause",
}
# Build tools only (dev dependencies, never shipped in the bundle), reviewed:
EXCEPTIONS = {
    # Tailwind's CSS compiler; MPL-2.0 is file-level copyleft and we ship none of its files.
    "lightningcss": "MPL-2.0",
    # A dependency of js-yaml used by the build tooling; the PSF licence is permissive.
    "argparse": "Python-2.0",
    # A permissive licence (OSI approved) of a cache used by the test tooling.
    "lru-cache": "BlueOak-1.0.0",
}
REGISTRY = "https://registry.npmjs.org/"


def main(path: Path) -> int:
    lock = json.loads(path.read_text())
    problems = []
    packages = {name: entry for name, entry in lock["packages"].items() if name}
    for name, entry in packages.items():
        if entry.get("link"):
            continue
        short = name.rsplit("node_modules/", 1)[-1]
        integrity = entry.get("integrity", "")
        if not integrity.startswith("sha512-"):
            problems.append(f"{short}: no sha512 integrity hash")
        resolved = entry.get("resolved")
        if resolved is not None and not resolved.startswith(REGISTRY):
            problems.append(f"{short}: resolved outside the npm registry: {resolved}")
        licence = entry.get("license")
        family = short.split("-")[0] if short.startswith("lightningcss") else short
        if licence in ALLOWED:
            continue
        if EXCEPTIONS.get(family) == licence and entry.get("dev"):
            continue
        problems.append(f"{short}: licence {licence!r} is not allowed")
    for problem in problems:
        print(f"npm lock: {problem}", file=sys.stderr)
    print(f"npm lock: {len(packages)} packages checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "web/package-lock.json")))
