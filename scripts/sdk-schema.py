"""Writes api/sdk-schema.json: the wire contract of the API as the official Pod Engine SDK
(podengine==0.3.2) states it, in OpenAPI components form. The server includes it at compile
time and references its schemas from each operation of GET /api/v1/openapi.json.

- `components.schemas`: every response model of the SDK, and one request model per
  operation that sends a JSON body (`<OperationId>Request`), built from the SDK method's
  keyword arguments under the wire names it sends them as (unset arguments are not sent,
  so an optional argument is an optional property, not a nullable one).
- `x-sdk-operations`: for each SDK operation, its method, path, and the names of its
  response and request models, so the server's tests check each path references the
  model the SDK validates that path's answers with.

Run `python3 scripts/sdk-schema.py > api/sdk-schema.json` when the SDK version changes."""

import ast
import inspect
import json
import sys
import types
import typing
from typing import Any, Union

from pydantic import BaseModel, Field, RootModel, create_model
from pydantic.json_schema import models_json_schema

from podengine._generated import models, resources


def without_none(annotation: Any) -> tuple[Any, bool]:
    """The annotation with `None` taken out of a union, and whether it was there."""
    origin = typing.get_origin(annotation)
    if origin in (Union, types.UnionType):
        args = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        had = len(args) != len(typing.get_args(annotation))
        if len(args) == 1:
            return args[0], had
        return Union[tuple(args)], had
    return annotation, False


def body_keys(source: ast.Module) -> dict[str, dict[str, str]]:
    """Operation id -> {wire name: argument name}, read from the dict each sync method
    passes to `self._core.request(_DESCRIPTORS[...], {...})`."""
    found: dict[str, dict[str, str]] = {}
    for node in ast.walk(source):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "request"):
            continue
        if len(node.args) < 2 or not isinstance(node.args[0], ast.Subscript) or not isinstance(node.args[1], ast.Dict):
            continue
        key = node.args[0].slice
        if not isinstance(key, ast.Constant):
            continue
        mapping = {}
        for wire, value in zip(node.args[1].keys, node.args[1].values):
            if isinstance(wire, ast.Constant) and isinstance(value, ast.Name):
                mapping[wire.value] = value.id
        found.setdefault(key.value, mapping)
    return found


def sync_methods() -> dict[str, Any]:
    """Operation id -> the sync SDK method that calls it."""
    methods = {}
    for _, resource in inspect.getmembers(resources, inspect.isclass):
        if not resource.__name__.endswith("Resource") or resource.__name__.startswith("Async"):
            continue
        for _, method in inspect.getmembers(resource, inspect.isfunction):
            text = inspect.getsource(method)
            for operation in resources._DESCRIPTORS:
                if f'_DESCRIPTORS["{operation}"]' in text:
                    methods[operation] = method
    return methods


def main() -> None:
    source = ast.parse(inspect.getsource(resources))
    keys = body_keys(source)
    methods = sync_methods()
    namespace = dict(vars(resources))

    response_names = sorted(
        name
        for name, value in inspect.getmembers(models, inspect.isclass)
        if issubclass(value, BaseModel) and value.__module__ == models.__name__ and name.endswith("Response")
    )
    pairs: list[tuple[type[BaseModel], str]] = [(getattr(models, name), "validation") for name in response_names]
    operations: dict[str, dict[str, Any]] = {}
    for operation, descriptor in sorted(resources._DESCRIPTORS.items()):
        # A binary download has no model; every other answer is validated by one.
        adapter = None if descriptor.binary else getattr(resources, f"_adapter_{operation}")
        response = None
        if adapter is not None and isinstance(adapter._type, type):
            response = adapter._type.__name__
        elif adapter is not None:
            # An answer that is one of several models gets a name of its own.
            response = operation[0].upper() + operation[1:] + "Response"
            assert not hasattr(models, response), response
            pairs.append((type(response, (RootModel[adapter._type],), {"__module__": __name__}), "validation"))
        entry: dict[str, Any] = {
            "method": descriptor.method,
            "path": descriptor.path,
            "response": response,
            "request": None,
        }
        if descriptor.body != "none":
            method = methods[operation]
            hints = typing.get_type_hints(method, globalns=namespace)
            parameters = inspect.signature(method).parameters
            name = operation[0].upper() + operation[1:] + "Request"
            skip = set(descriptor.path_params) | set(descriptor.query_params)
            if descriptor.body == "field":
                model = type(name, (RootModel[hints["body"]],), {"__module__": __name__})
            else:
                fields = {}
                for wire, argument in keys[operation].items():
                    if wire in skip:
                        continue
                    annotation, _ = without_none(hints[argument])
                    required = parameters[argument].default is inspect.Parameter.empty
                    fields[argument] = (annotation, Field(... if required else None, alias=wire))
                model = create_model(name, **fields)
            pairs.append((model, "validation"))
            entry["request"] = name
        operations[operation] = entry

    _, top = models_json_schema(pairs, by_alias=True, ref_template="#/components/schemas/{model}")
    schemas = top.get("$defs", {})
    for entry in operations.values():
        # An argument left unset is not sent: its `None` default is no value of the body.
        request = schemas.get(entry["request"] or "", {})
        for field in request.get("properties", {}).values():
            if field.get("default", 0) is None:
                del field["default"]
    for entry in operations.values():
        for role in ("response", "request"):
            if entry[role] is not None and entry[role] not in schemas:
                raise SystemExit(f"{entry[role]} is missing from the schemas")
    document = {
        "openapi": "3.1.0",
        "info": {"title": "Pod Engine SDK wire models", "version": "0.3.2"},
        "paths": {},
        "components": {"schemas": schemas},
        "x-sdk-operations": operations,
    }
    json.dump(document, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
