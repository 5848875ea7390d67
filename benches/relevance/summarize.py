#!/usr/bin/env python3
"""Summaries of the real corpus feeds for relevance judging.

Reads every feed in ../shared/corpus/feeds (top level only: edge cases and malformed
feeds are not real shows) with feedparser, an implementation independent of Podlens's
own parser, and writes one JSON object per show: file, title, author, language,
categories, description and a sample of episode titles and descriptions. Judges read
these, never a search system's output, to grade a show for a query.

    python3 benches/relevance/summarize.py OUT.json
"""

import html
import json
import re
import sys
from pathlib import Path

import feedparser

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "feeds"
TAG = re.compile(r"<[^>]+>")
SPACE = re.compile(r"\s+")


def plain(text, limit):
    text = SPACE.sub(" ", html.unescape(TAG.sub(" ", text or ""))).strip()
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + " …"


def summary(path):
    feed = feedparser.parse(path.read_bytes())
    channel = feed.feed
    categories = sorted({tag.get("term", "") for tag in channel.get("tags", []) if tag.get("term")})
    entries = feed.entries
    sample = entries[:20] + entries[20::max(1, len(entries) // 20)][:20] if len(entries) > 20 else entries
    seen = set()
    episodes = []
    for entry in sample:
        title = plain(entry.get("title", ""), 160)
        if title in seen:
            continue
        seen.add(title)
        episodes.append(
            {"title": title, "description": plain(entry.get("summary", ""), 200)}
        )
    return {
        "file": path.name,
        "title": plain(channel.get("title", ""), 200),
        "author": plain(channel.get("author", "") or channel.get("itunes_author", ""), 200),
        "language": channel.get("language", ""),
        "categories": categories,
        "description": plain(channel.get("summary", "") or channel.get("subtitle", ""), 900),
        "episodes_total": len(entries),
        "episodes": episodes,
    }


def main():
    out = Path(sys.argv[1])
    shows = [summary(path) for path in sorted(CORPUS.iterdir()) if path.is_file() and path.suffix in (".xml", ".rss")]
    out.write_text(json.dumps(shows, ensure_ascii=False, indent=1))
    print(f"{len(shows)} shows -> {out}")


if __name__ == "__main__":
    main()
