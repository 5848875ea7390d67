"""`podlens ingest` against Python's feedparser on the shared corpus: on the real feeds,
titles, episode counts, enclosure URLs and dates agree on at least 99% of items; on
every file (real, edge cases, malformed) each disagreement has a cause found in the
feed itself; and the committed report (docs/ingest-differential.md) shows the figures
of this run.

Needs the `podlens` binary (PODLENS_BIN, default $CARGO_TARGET_DIR/debug/podlens) and
scripts/install-python.sh's packages. See differential.py for the method.
"""

from __future__ import annotations

import pytest

import differential

REPORT = differential.REPO / "docs" / "ingest-differential.md"


@pytest.fixture(scope="module")
def outcomes() -> dict[str, differential.Outcome]:
    binary = differential.podlens_bin()
    if not binary.is_file():
        pytest.fail(f"PODLENS_BIN: {binary} does not exist; run cargo build -p podlens-tools --bin podlens")
    return differential.run_all()


def test_every_real_feed_is_compared(outcomes):
    real = outcomes["real"]
    assert real.feeds == len(differential.real_feed_files()) > 100
    assert real.items_feedparser > 20_000
    assert real.matched > 0.99 * real.items_feedparser


@pytest.mark.parametrize("field", differential.FIELDS)
def test_field_agrees_on_99_percent_of_real_items(outcomes, field):
    real = outcomes["real"]
    assert real.compared[field] > 20_000
    assert real.ratio(field) >= 0.99, f"{field}: {real.ratio(field):.4f}"


@pytest.mark.parametrize("corpus", ["real", "edge"])
def test_every_disagreement_has_a_known_cause(outcomes, corpus):
    unexplained = [d for d in outcomes[corpus].disagreements if d.category == "unexplained"]
    assert not unexplained, "\n".join(
        f"{d.feed} {d.field} {d.key!r}: podlens {d.ours!r} / feedparser {d.theirs!r}" for d in unexplained[:20]
    )


def test_committed_report_shows_this_run(outcomes):
    def figures(text: str) -> list[str]:
        return [line for line in text.splitlines() if line.startswith(("| ", "### ", "- items"))]

    committed = figures(REPORT.read_text(encoding="utf-8"))
    assert committed == figures(differential.report(outcomes)), (
        "docs/ingest-differential.md is stale: run python3 tests/ingest/differential.py --report docs/ingest-differential.md"
    )


def test_rules_find_their_cause_in_the_bytes():
    # A second computation of each rule on hand-made input: a rule fires only when the
    # feed shows its cause.
    blocked = b"<rss><channel><item><guid>a</guid><itunes:block>yes</itunes:block></item></channel></rss>"
    open_feed = b"<rss><channel><item><guid>a</guid></item></channel></rss>"
    missing = differential.Disagreement("f", "count", "a", None, "item")
    assert differential.classify(missing, blocked, []) == differential.BLOCKED
    assert differential.classify(missing, open_feed, []) == "unexplained"
    item = differential.FpItem("a", "t", None, 3155760000, "01 Jan 70 00:00:00 +0000")
    century = differential.Disagreement("f", "date", "a", 0, 3155760000)
    assert differential.classify(century, b"", [item]) == differential.TWO_DIGIT_YEAR
    off_by_hour = differential.Disagreement("f", "date", "a", 3600, 3155760000)
    assert differential.classify(off_by_hour, b"", [item]) == "unexplained"
    readable = differential.FpItem("a", "t", None, None, "Thu, 18 Jun 2015 14:30:25 +0200")
    unreadable = differential.FpItem("a", "t", None, None, "Thu, 118 Jun 2015 14:30:25 +0200")
    one_sided = differential.Disagreement("f", "date", "a", None, 1434630625)
    assert differential.classify(one_sided, b"", [unreadable]) == differential.UNPARSEABLE_DATE
    assert differential.classify(one_sided, b"", [readable]) == "unexplained"
