"""Differential check of `podlens ingest` against Python's feedparser on the real feeds
of the shared corpus (../shared/corpus/feeds/*, not malformed/ or edge-cases/).

Both sides read the same files. Ours: the real `podlens ingest` binary into a temporary
data directory, read back from the Parquet snapshot (`podcasts.parquet`,
`episodes.parquet`). Theirs: `feedparser.parse` on the file. Items are matched within a
feed by guid, else enclosure URL, else title; then four fields are compared:

- episode count per feed,
- title (whitespace collapsed; feedparser's HTML-stripped title compared as text),
- enclosure URL (the first enclosure),
- publication date as a UTC instant (exact to the second).

Every disagreement is put in a category by a rule that checks the raw feed bytes for
the cause (`classify_*` below); a disagreement no rule explains is `unexplained`.

Run as a script to regenerate the committed report:

    python3 tests/ingest/differential.py --report docs/ingest-differential.md

Environment: PODLENS_BIN (default $CARGO_TARGET_DIR/debug/podlens), PODLENS_CORPUS
(default ../shared/corpus beside the repository).
"""

from __future__ import annotations

import argparse
import calendar
import html
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIELDS = ("count", "title", "enclosure", "date")


def corpus_dir() -> Path:
    return Path(os.environ.get("PODLENS_CORPUS", REPO.parent / "shared" / "corpus"))


def podlens_bin() -> Path:
    default = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target")) / "debug" / "podlens"
    return Path(os.environ.get("PODLENS_BIN", default))


def real_feed_files() -> list[Path]:
    """The real feeds listed in INDEX.tsv (top level of feeds/ only)."""
    corpus = corpus_dir()
    lines = (corpus / "feeds" / "INDEX.tsv").read_text(encoding="utf-8").splitlines()[1:]
    paths = [line.split("\t", 1)[0] for line in lines if line.strip()]
    return [corpus / path for path in paths if path.count("/") == 1]


# ---------------------------------------------------------------- feedparser side


@dataclass
class FpItem:
    guid: str | None
    title: str
    enclosure: str | None
    date: int | None
    raw_date: str | None


def _instant(parsed) -> int | None:
    return calendar.timegm(parsed) if parsed else None


def feedparser_items(path: str) -> tuple[str, list[FpItem]]:
    import feedparser

    document = feedparser.parse(path)
    items = []
    for entry in document.entries:
        enclosures = [link.get("href") for link in entry.get("enclosures", []) if link.get("href")]
        parsed = entry.get("published_parsed") or entry.get("updated_parsed")
        items.append(
            FpItem(
                guid=(entry.get("id") or "").strip() or None,
                title=entry.get("title", ""),
                enclosure=enclosures[0].strip() if enclosures else None,
                date=_instant(parsed),
                raw_date=entry.get("published") or entry.get("updated"),
            )
        )
    return path, items


def parse_all_with_feedparser(files: list[Path]) -> dict[str, list[FpItem]]:
    workers = max(1, min(4, os.cpu_count() or 1))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return dict(pool.map(feedparser_items, [str(path) for path in files], chunksize=2))


# ---------------------------------------------------------------- podlens side


@dataclass
class OurItem:
    guid: str | None
    title: str
    enclosure: str | None
    date: int | None


def run_ingest(files: list[Path], data_dir: Path) -> None:
    subprocess.run(
        [str(podlens_bin()), "--no-progress", "--data-dir", str(data_dir), "ingest", "--no-transcripts"]
        + [str(path) for path in files],
        check=True,
        stdout=subprocess.DEVNULL,
        env={**os.environ, "PODLENS_LOG": "error"},
    )


def read_snapshot(data_dir: Path) -> dict[str, list[OurItem]]:
    """Episodes of the snapshot grouped by podcast id."""
    import duckdb

    episodes = data_dir / "parquet" / "episodes.parquet"
    rows = duckdb.sql(
        f"""SELECT "podcastId", "episodeGuid", "episodeRssTitle", "episodeEnclosureUrl",
                   epoch("episodeRssPublishedAt")
            FROM read_parquet('{episodes}')"""
    ).fetchall()
    grouped: dict[str, list[OurItem]] = defaultdict(list)
    for podcast, guid, title, enclosure, date in rows:
        grouped[podcast].append(
            OurItem(guid, title, enclosure, int(date) if date is not None else None)
        )
    return grouped


def _keys(guid, enclosure, title) -> list[str]:
    keys = []
    if guid:
        keys.append("g:" + guid.strip())
    if enclosure:
        keys.append("e:" + enclosure.strip())
    if title:
        keys.append("t:" + squash(title))
    return keys


def assign_podcasts(
    expected: dict[str, list[FpItem]], grouped: dict[str, list[OurItem]]
) -> tuple[dict[str, str], set[str]]:
    """Maps each feed file to the podcast whose episodes share the most keys with it.
    Returns the mapping and the files that are ambiguous (a podcast claimed by two
    files, e.g. two dated snapshots of one show; or two podcasts tied for one file,
    whichever the snapshot happened to list first) or unmatched."""
    index: dict[str, set[str]] = defaultdict(set)
    for podcast, items in grouped.items():
        for item in items:
            for key in _keys(item.guid, item.enclosure, item.title):
                index[key].add(podcast)
    mapping: dict[str, str] = {}
    unsure: set[str] = set()
    for path, items in expected.items():
        votes: Counter[str] = Counter()
        for item in items:
            for key in _keys(item.guid, item.enclosure, item.title)[:1]:
                votes.update(index.get(key, ()))
        ranked = votes.most_common(2)
        if ranked and (len(ranked) == 1 or ranked[0][1] > ranked[1][1]):
            mapping[path] = ranked[0][0]
        else:  # no podcast, or a tie (files whose items share titles): decided alone
            unsure.add(path)
    claims = Counter(mapping.values())
    unsure |= {path for path, podcast in mapping.items() if claims[podcast] > 1}
    return mapping, unsure


def podlens_items(files: list[Path], workdir: Path, expected) -> dict[str, list[OurItem]]:
    """Our episodes per feed file: one ingest of every file, then one ingest per file
    for the files that share a podcast with another (or match none)."""
    shared = workdir / "all"
    run_ingest(files, shared)
    grouped = read_snapshot(shared)
    mapping, unsure = assign_podcasts({str(f): expected[str(f)] for f in files}, grouped)
    result = {path: grouped[podcast] for path, podcast in mapping.items() if path not in unsure}
    for number, path in enumerate(sorted(unsure)):
        alone = workdir / f"one-{number}"
        run_ingest([Path(path)], alone)
        single = read_snapshot(alone)
        result[path] = [item for items in single.values() for item in items]
    return result


# ---------------------------------------------------------------- comparison

WHITESPACE = re.compile(r"\s+")
TAG = re.compile(r"<[^>]*>")


def squash(text: str | None) -> str:
    return WHITESPACE.sub(" ", text or "").strip()


@dataclass
class Disagreement:
    feed: str
    field: str
    key: str
    ours: object
    theirs: object
    category: str = "unexplained"


@dataclass
class Outcome:
    compared: Counter = field(default_factory=Counter)
    agreed: Counter = field(default_factory=Counter)
    disagreements: list[Disagreement] = field(default_factory=list)
    feeds: int = 0
    items_feedparser: int = 0
    items_podlens: int = 0
    matched: int = 0

    def ratio(self, name: str) -> float:
        return self.agreed[name] / self.compared[name] if self.compared[name] else 1.0


def match_items(ours: list[OurItem], theirs: list[FpItem]):
    """Pairs of (our item, their item) matched by each item's identity (guid, else
    enclosure URL, else title; as `item_key` in ingest/src/normalize.rs), plus the
    unmatched of each side. One item left over on each side are paired."""
    by_key: dict[str, list[int]] = defaultdict(list)
    for position, item in enumerate(ours):
        for key in _keys(item.guid, item.enclosure, item.title)[:1]:
            by_key[key].append(position)
    used: set[int] = set()
    pairs, lonely = [], []
    for item in theirs:
        found = None
        for key in _keys(item.guid, item.enclosure, item.title)[:1]:
            found = next((p for p in by_key.get(key, ()) if p not in used), None)
        if found is None:
            lonely.append(item)
        else:
            used.add(found)
            pairs.append((ours[found], item))
    rest = [item for p, item in enumerate(ours) if p not in used]
    if len(rest) == 1 and len(lonely) == 1:
        pairs.append((rest.pop(), lonely.pop()))
    return pairs, lonely, rest


def compare(expected: dict[str, list[FpItem]], actual: dict[str, list[OurItem]]) -> Outcome:
    outcome = Outcome()
    for path in sorted(expected):
        theirs, ours = expected[path], actual.get(path, [])
        name = Path(path).name
        raw = Path(path).read_bytes()
        outcome.feeds += 1
        outcome.items_feedparser += len(theirs)
        outcome.items_podlens += len(ours)
        pairs, only_theirs, only_ours = match_items(ours, theirs)
        outcome.matched += len(pairs)
        # Episode counts, item by item: every feedparser item should have one of ours.
        outcome.compared["count"] += max(len(theirs), len(ours))
        outcome.agreed["count"] += len(pairs)
        for item in only_theirs:
            outcome.disagreements.append(
                Disagreement(name, "count", item.guid or item.enclosure or item.title, None, "item")
            )
        for item in only_ours:
            outcome.disagreements.append(
                Disagreement(name, "count", item.guid or item.enclosure or item.title, "item", None)
            )
        for our, their in pairs:
            key = their.guid or their.enclosure or their.title
            checks = {
                "title": (squash(our.title), squash(their.title)),
                "enclosure": ((our.enclosure or "").strip() or None, their.enclosure),
                "date": (our.date, their.date),
            }
            for name_, (left, right) in checks.items():
                outcome.compared[name_] += 1
                if left == right:
                    outcome.agreed[name_] += 1
                else:
                    outcome.disagreements.append(Disagreement(name, name_, key, left, right))
        for disagreement in outcome.disagreements:
            if disagreement.feed == name and disagreement.category == "unexplained":
                disagreement.category = classify(disagreement, raw, theirs)
    return outcome


# ---------------------------------------------------------------- explanations


def classify(d: Disagreement, raw: bytes, theirs: list[FpItem]) -> str:
    for rule in RULES:
        category = rule(d, raw, theirs)
        if category:
            return category
    return "unexplained"


RULES: list = []


def rule(function):
    RULES.append(function)
    return function


CATEGORIES: dict[str, str] = {}


def explained(category: str, text: str) -> str:
    CATEGORIES[category] = text
    return category


DUPLICATE_ID = explained(
    "repeated item guid",
    "The feed repeats an item's `<guid>`. An episode's identity is its guid (issue 3: "
    "\"episode by item guid\"), so podlens stores the first item with that guid once; "
    "feedparser returns every item. Not a parse difference: both read the same items.",
)
BLOCKED = explained(
    "itunes:block / podcast:block",
    "The feed or the item says `<itunes:block>yes</itunes:block>` or `<podcast:block>yes"
    "</podcast:block>` (without a platform `id`). podlens respects it (issue 3) and stores "
    "no episode for it (a blocked feed is recorded as an error in the fetch log); "
    "feedparser has no such rule.",
)
TWO_DIGIT_YEAR = explained(
    "two-digit year",
    "The date has a two-digit year (`01 Jan 70 01:00:00 +0100`). RFC 2822 §4.3 reads "
    "50–99 as 1950–1999 and 00–49 as 2000–2049; podlens follows it (1970), feedparser "
    "reads every two-digit year as 20xx (2070). The instants differ by exactly 100 years.",
)
MEDIA_CONTENT = explained(
    "media:content as the media file",
    "The item has no `<enclosure>`; its media file is a Media RSS `<media:content url=…>` "
    "(YouTube channel feeds, Media RSS podcasts). podlens takes it as the episode's "
    "media file (`primary_enclosure`); feedparser lists only `<enclosure>` and Atom "
    "`rel=\"enclosure\"` links as enclosures and keeps media:content apart.",
)
UNPARSEABLE_DATE = explained(
    "date only one side reads",
    "One side has a date, the other none, and the text is not a date Python's own RFC 2822 "
    "and ISO 8601 readers accept either (e.g. `Thu, 118 Jun 2015`). Tolerated: one side "
    "gave up rather than reading a different instant.",
)

BLOCK_YES = re.compile(rb"<(?:itunes|podcast):block\s*>\s*(?:yes|true)\s*<", re.IGNORECASE)
ITEM_START = re.compile(rb"<(?:item|entry)[\s>]")
TWO_DIGIT_YEAR_DATE = re.compile(r"\b\d{1,2}\s+[A-Za-z]{3,9}\.?\s+\d{2}\s+\d{1,2}:")
CENTURY = {36524 * 86400, 36525 * 86400}


@rule
def repeated_guid(d: Disagreement, raw: bytes, theirs: list[FpItem]) -> str | None:
    if d.field == "count" and d.theirs == "item" and d.key:
        same = sum(1 for item in theirs if item.guid == d.key)
        if same > 1 and raw.count(html.escape(d.key, quote=False).encode()) > 1:
            return DUPLICATE_ID
    return None


@rule
def blocked(d: Disagreement, raw: bytes, theirs: list[FpItem]) -> str | None:
    if d.field != "count" or d.ours is not None:
        return None
    chunks = ITEM_START.split(raw)
    if BLOCK_YES.search(chunks[0]):  # the channel's own block
        return BLOCKED
    needles = {d.key.encode(), html.escape(d.key, quote=False).encode()} if d.key else set()
    for chunk in chunks[1:]:
        if any(needle in chunk for needle in needles) and BLOCK_YES.search(chunk):
            return BLOCKED
    return None


@rule
def two_digit_year(d: Disagreement, raw: bytes, theirs: list[FpItem]) -> str | None:
    if d.field != "date" or d.ours is None or d.theirs is None:
        return None
    raw_dates = [item.raw_date or "" for item in theirs if item.date == d.theirs]
    if abs(d.theirs - d.ours) in CENTURY and any(TWO_DIGIT_YEAR_DATE.search(text) for text in raw_dates):
        return TWO_DIGIT_YEAR
    return None


@rule
def media_content(d: Disagreement, raw: bytes, theirs: list[FpItem]) -> str | None:
    if d.field == "enclosure" and d.theirs is None and d.ours:
        if re.search(rb"<media:content[^>]*url=[\"']" + re.escape(html.escape(d.ours).encode()), raw) or re.search(
            rb"<media:content[^>]*url=[\"']" + re.escape(d.ours.encode()), raw
        ):
            return MEDIA_CONTENT
    return None


@rule
def one_sided_date(d: Disagreement, raw: bytes, theirs: list[FpItem]) -> str | None:
    if d.field == "date" and (d.ours is None) != (d.theirs is None):
        texts = [item.raw_date for item in theirs if (item.guid or item.enclosure or item.title) == d.key]
        if texts and not any(text and stdlib_reads_date(text) for text in texts):
            return UNPARSEABLE_DATE
    return None


def stdlib_reads_date(text: str) -> bool:
    """Python's own RFC 2822 and ISO 8601 readers accept the date."""
    import datetime
    import email.utils

    try:
        email.utils.parsedate_to_datetime(text)
        return True
    except (TypeError, ValueError, IndexError):
        pass
    try:
        datetime.datetime.fromisoformat(text.strip())
        return True
    except ValueError:
        return False


# ---------------------------------------------------------------- runs


def edge_case_files() -> list[Path]:
    """The synthetic edge cases and the malformed feeds (reported, not held to 99%)."""
    feeds = corpus_dir() / "feeds"
    return sorted(
        path
        for folder in ("edge-cases", "malformed")
        for path in (feeds / folder).iterdir()
        if path.is_file()
    )


def run(files: list[Path]) -> Outcome:
    expected = parse_all_with_feedparser(files)
    with tempfile.TemporaryDirectory(prefix="podlens-differential-") as directory:
        actual = podlens_items(files, Path(directory), expected)
    return compare(expected, actual)


def run_all() -> dict[str, Outcome]:
    return {"real": run(real_feed_files()), "edge": run(edge_case_files())}


def _section(outcome: Outcome, title: str) -> list[str]:
    lines = [
        f"## {title}",
        "",
        f"- items: feedparser {outcome.items_feedparser}, podlens {outcome.items_podlens}, "
        f"matched {outcome.matched} ({outcome.feeds} files).",
        "",
        "| field | compared | agree | ratio |",
        "|---|---:|---:|---:|",
    ]
    for name in FIELDS:
        lines.append(
            f"| {name} | {outcome.compared[name]} | {outcome.agreed[name]} | {outcome.ratio(name) * 100:.3f}% |"
        )
    lines.append("")
    by_category: dict[str, list[Disagreement]] = defaultdict(list)
    for d in outcome.disagreements:
        by_category[d.category].append(d)
    if not by_category:
        lines += ["No disagreements.", ""]
    for category in sorted(by_category, key=lambda c: (-len(by_category[c]), c)):
        items = by_category[category]
        fields = Counter(d.field for d in items)
        feeds = sorted({d.feed for d in items})
        lines += [
            f"### {category}: "
            + ", ".join(f"{n} {f}" for f, n in sorted(fields.items()))
            + f" ({len(feeds)} feeds)",
            "",
            CATEGORIES.get(category, "No rule explains these."),
            "",
            "Feeds: " + ", ".join(f"`{f}`" for f in feeds[:8]) + (" …" if len(feeds) > 8 else ""),
            "",
            "Examples (podlens | feedparser):",
            "",
        ]
        for d in items[:3]:
            lines.append(
                f"- `{d.feed}`, {d.field} of `{str(d.key)[:70]}`: `{str(d.ours)[:90]}` | `{str(d.theirs)[:90]}`"
            )
        lines.append("")
    return lines


def report(outcomes: dict[str, Outcome]) -> str:
    import importlib.metadata as metadata

    lines = [
        "# Ingest: differential check against feedparser",
        "",
        "Generated by `python3 tests/ingest/differential.py --report docs/ingest-differential.md`",
        "and checked by `pytest tests/ingest` (run by scripts/test.sh), which fails when a",
        "field agrees on fewer than 99% of the real feeds' items, when a disagreement has no",
        "cause found in the feed itself, or when this file no longer shows the figures of a",
        "fresh run.",
        "",
        "## Method",
        "",
        f"- feedparser {metadata.version('feedparser')} (`feedparser.parse` on the file) against",
        "  the real `podlens ingest --no-transcripts` of the same files into a temporary data",
        "  directory, read back from `parquet/episodes.parquet`.",
        "- Items are matched within a feed by identity: guid, else enclosure URL, else title",
        "  (podlens's episode identity); one item left over on each side is paired.",
        "- count: every item of either side is one comparison; it agrees when the other side",
        "  has the matching item. title: equal after collapsing whitespace. enclosure: the",
        "  first enclosure URL. date: the publication (else update) date as a UTC instant,",
        "  to the second; feedparser's `published_parsed` is already UTC.",
        "- Dates one side cannot read: when one side has a date and the other none, the pair",
        "  is explained (\"date only one side reads\") only when the text is no date that",
        "  Python's own RFC 2822 and ISO 8601 readers accept; otherwise it is unexplained.",
        "- Each disagreement gets its cause from a rule that checks the feed's bytes",
        "  (tests/ingest/differential.py, `RULES`); none may be left unexplained.",
        "",
    ]
    lines += _section(outcomes["real"], "Real feeds (feeds/*, the 99% gate)")
    lines += _section(
        outcomes["edge"],
        "Edge cases and malformed feeds (feeds/edge-cases, feeds/malformed; reported, no gate)",
    )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--report", type=Path, help="write the Markdown report here")
    arguments = parser.parse_args()
    text = report(run_all())
    if arguments.report:
        arguments.report.write_text(text + "\n", encoding="utf-8")
    else:
        print(text)
    unexplained = "\n### unexplained" in text
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
