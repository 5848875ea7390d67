"""The server's OpenAPI document describes every endpoint the official SDK calls.

Expectations come from the SDK's own endpoint table (method and path of each call), not
from the server. The few SDK endpoints the server does not have yet are listed here and
must not be in the document either (so the list cannot silently go stale).
"""

from __future__ import annotations

import json
import urllib.request

from podengine._generated import resources

# SDK endpoints the server does not serve yet (none: every SDK endpoint is served).
NOT_BUILT: set[tuple[str, str]] = set()


def _document(server: str) -> dict:
    with urllib.request.urlopen(f"{server}/api/v1/openapi.json", timeout=30) as response:
        return json.load(response)


def test_every_sdk_endpoint_is_documented(server):
    document = _document(server)
    assert document["openapi"].startswith("3.1")
    paths = document["paths"]
    sdk = {(d.method.upper(), d.path) for d in resources._DESCRIPTORS.values()}
    assert len(sdk) > 70
    missing = sorted(
        (method, path)
        for method, path in sdk - NOT_BUILT
        if method.lower() not in paths.get(path, {})
    )
    assert missing == [], f"SDK endpoints missing from the OpenAPI document: {missing}"
    for method, path in NOT_BUILT:
        assert method.lower() not in paths.get(path, {}), f"{method} {path} is built now: drop it from NOT_BUILT"


def test_path_parameters_are_declared(server):
    """Every `{name}` in a documented path is declared as a path parameter."""
    for path, operations in _document(server)["paths"].items():
        names = {part[1:-1] for part in path.split("/") if part.startswith("{") and part.endswith("}")}
        for method, operation in operations.items():
            declared = {p["name"] for p in operation.get("parameters", []) if p.get("in") == "path"}
            assert names <= declared, f"{method.upper()} {path}: path parameters {names - declared} not declared"


def test_sdk_endpoints_document_the_sdk_models(server):
    """Each SDK endpoint's 200 answer is the envelope around the model the SDK validates
    that endpoint's answers with (read from the SDK's own adapters), and each endpoint
    the SDK sends a JSON body to documents a request body."""
    document = _document(server)
    checked = 0
    for name, descriptor in resources._DESCRIPTORS.items():
        operation = document["paths"].get(descriptor.path, {}).get(descriptor.method.lower())
        if operation is None:
            continue
        assert operation["operationId"] == name
        ok = operation["responses"]["200"].get("content", {})
        if descriptor.binary:
            # A file download: never the JSON envelope.
            assert "application/json" not in ok, name
            continue
        schema = ok["application/json"]["schema"]
        assert schema["properties"]["status"] == {"const": "OK"}
        model = getattr(resources, f"_adapter_{name}")._type
        expected = model.__name__ if isinstance(model, type) else name[0].upper() + name[1:] + "Response"
        assert schema["properties"]["data"] == {"$ref": f"#/components/schemas/{expected}"}, name
        if descriptor.body != "none":
            body = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
            assert document["components"]["schemas"][body.rsplit("/", 1)[1]], name
        checked += 1
    assert checked > 65
