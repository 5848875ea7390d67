"""Writes sdk-schema.json: the response and request models of the Pod Engine SDK
(podengine==0.3.2, the wire contract of the API) as an OpenAPI components document,
from which `npm run gen:sdk` generates src/lib/sdk-schema.d.ts."""

import inspect
import json
import sys

from pydantic import BaseModel, TypeAdapter
from pydantic.json_schema import models_json_schema

from podengine._generated import models


def main() -> None:
    names = sorted(
        name
        for name, value in inspect.getmembers(models, inspect.isclass)
        if issubclass(value, BaseModel)
        and value.__module__ == models.__name__
        and (name.endswith("Response") or name.startswith("AskAgentProjectPodcastRelevancySearchOptionsVariant"))
    )
    pairs = [(getattr(models, name), "validation") for name in names]
    _, top = models_json_schema(pairs, by_alias=True, ref_template="#/components/schemas/{model}")
    document = {
        "openapi": "3.1.0",
        "info": {"title": "Pod Engine SDK models", "version": "0.3.2"},
        "paths": {},
        "components": {"schemas": top.get("$defs", {})},
    }
    json.dump(document, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
