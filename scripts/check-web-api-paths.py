#!/usr/bin/env python3
"""Every API path the web app calls exists in the server's OpenAPI document.

Reads web/src (tests aside) for the paths given to `apiRequest`, `downloadRequest` and
`call` (string and template literals; `${CONSTANT}` resolved from the file's own
`const CONSTANT = '...'`), turns each `${...}` into a path parameter and looks for an
operation of web/openapi.json whose path matches segment by segment. Prints the calls
without one and exits 1 when there are any.

    python3 scripts/check-web-api-paths.py
"""

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PREFIX = "/api/v1"
CALL = re.compile(r"\b(?:apiRequest|downloadRequest|call)\s*(?:<(?:[^<>]|<[^<>]*>)*>)?\s*\(\s*(?:'[a-z]+'\s*,\s*)?([`'\"])(.*?)\1", re.S)
CONSTANT = re.compile(r"const\s+([A-Z_][A-Z0-9_]*)\s*=\s*([`'\"])(/[^`'\"]*)\2")
PLACEHOLDER = re.compile(r"\$\{([^}]*)\}")


def segments(path):
    return [segment for segment in path.strip("/").split("/") if segment]


def matches(call, route):
    a, b = segments(call), segments(route)
    if len(a) != len(b):
        return False
    for mine, theirs in zip(a, b):
        parameter = theirs.startswith("{") and theirs.endswith("}")
        # a value the app fills in matches a path parameter only
        if mine == "{}" and not parameter:
            return False
        if not parameter and mine != theirs:
            return False
    return True


def main():
    document = json.loads((ROOT / "web" / "openapi.json").read_text())
    routes = [path for path in document["paths"] if path.startswith(PREFIX)]
    missing = []
    checked = 0
    for source in sorted((ROOT / "web" / "src").rglob("*.ts*")):
        if ".test." in source.name or source.name.endswith(".d.ts"):
            continue
        text = source.read_text()
        constants = {name: value for name, _, value in CONSTANT.findall(text)}
        for _, literal in CALL.findall(text):
            def resolve(match):
                inner = match.group(1).strip()
                return constants.get(inner, "{}")
            path = PLACEHOLDER.sub(resolve, literal).split("?")[0]
            if not path.startswith("/"):
                continue
            checked += 1
            full = PREFIX + path
            if not any(matches(full, route) for route in routes):
                missing.append(f"{source.relative_to(ROOT)}: {full}")
    if missing:
        print("web calls with no operation in web/openapi.json:")
        for line in missing:
            print("  " + line)
        sys.exit(1)
    print(f"{checked} web API calls, each has an operation in web/openapi.json")


if __name__ == "__main__":
    main()
