"""schemathesis hooks of scripts/schemathesis.sh: boundary values in every query parameter.

schemathesis draws a parameter's values from its schema, and a date or a window is a plain
string there, so it never sent `endDate=-262143-01-01` or `sinceDays=4294967295`, which
panicked the server (500) until they were checked. Two hooks widen its strategy:

- `before_add_examples`: the examples phase also sends, for every GET operation, each of
  its query parameters alone at each value of BOUNDARIES (path parameters naming a real
  podcast and episode of the fixture, from ST_PODCAST_ID and ST_EPISODE_ID, so the route
  reaches past "not found");
- `flatmap_query`: in the fuzzing phase, any one query parameter of a generated case may
  be replaced by one of BOUNDARIES.

The server must answer each with a 2xx or a documented 4xx, never a 5xx.
"""

import os

import schemathesis
from hypothesis import strategies as st

BOUNDARIES = [
    # Dates at chrono's limits, past them, and calendar edges.
    "-262143-01-01",
    "+262142-12-31",
    "262143-01-01",
    "0000-01-01",
    "9999-12-31",
    "10000-01-01",
    "2025-02-29",
    # Integers at and past each width's edge.
    "0",
    "-1",
    "2147483647",
    "2147483648",
    "-2147483649",
    "4294967295",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "18446744073709551616",
    # Windows and ranges at their extremes.
    "9223372036854775807d",
    "-1d",
    # Not numbers at all.
    "NaN",
    "1e308",
    "",
]

REAL_IDS = {
    "podcastIdOrSlug": os.environ.get("ST_PODCAST_ID"),
    "podcastId": os.environ.get("ST_PODCAST_ID"),
    "episodeId": os.environ.get("ST_EPISODE_ID"),
    "chartType": "apple",
    "letter": "n",
}


@schemathesis.hook
def before_add_examples(ctx, examples):
    operation = ctx.operation
    if operation is None or operation.method.lower() != "get":
        return
    path_parameters = {}
    for parameter in operation.path_parameters:
        value = REAL_IDS.get(parameter.name)
        if value is None and examples and examples[0].path_parameters:
            value = examples[0].path_parameters.get(parameter.name)
        if value is None:
            return
        path_parameters[parameter.name] = value
    for parameter in operation.query:
        for value in BOUNDARIES:
            examples.append(
                operation.Case(
                    path_parameters=dict(path_parameters) or None,
                    query={parameter.name: value},
                )
            )


@schemathesis.hook
def flatmap_query(ctx, query):
    names = set(query or {})
    if ctx.operation is not None:
        names.update(parameter.name for parameter in ctx.operation.query)
    if not names:
        return st.just(query)
    drawn = dict(query or {})
    replaced = st.tuples(st.sampled_from(sorted(names)), st.sampled_from(BOUNDARIES)).map(
        lambda pair: {**drawn, pair[0]: pair[1]}
    )
    return st.one_of(st.just(query), replaced)
