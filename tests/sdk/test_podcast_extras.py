"""Sponsors, episode catalogue, all-details and refresh through the official SDK.

Every response goes through the SDK's pydantic models. Expected sponsors are read from
the corpus feed with a regular expression over its show notes, independently of the
server's detector. The refresh test serves a feed over HTTP on loopback, ingests it
with `podlens ingest`, lets the feed gain an episode and refreshes the podcast.
"""

from __future__ import annotations

import html
import re
import shutil
import subprocess
import tempfile
import threading
from collections import Counter
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from podengine import PodEngine, models

import conftest

FEED = "gnome-podcasts_2018-01-20-StealTheStars.xml"
FEED_PATH = conftest.REPO.parent / "shared" / "corpus" / "feeds" / FEED


def sponsored_items(text: str) -> list[tuple]:
    """(published, {sponsor names}) of each item, newest first: the first word of each
    name listed after "brought to you by" / "sponsored by", parentheses dropped."""
    items = []
    for body in re.findall(r"<item>(.*?)</item>", text, re.S):
        published = parsedate_to_datetime(re.search(r"<pubDate>(.*?)</pubDate>", body).group(1))
        if published.tzinfo is None:  # "-0000": UTC, as RFC 5322 allows
            published = published.replace(tzinfo=timezone.utc)
        notes = re.search(r"<description>(.*?)</description>", body, re.S)
        notes = (notes.group(1) if notes else "").replace("<![CDATA[", "").replace("]]>", "")
        plain = html.unescape(re.sub(r"<[^>]+>", " ", notes)).replace("\xa0", " ")
        plain = re.sub(r"\([^)]*\)", " ", plain)
        read = re.search(r"(?:brought to you by|sponsored by)\s+([^.]*)", plain, re.I)
        names = set()
        if read:
            for part in re.split(r",|\band\b", read.group(1)):
                if part.split():
                    names.add(part.split()[0])
        items.append((published, names))
    return sorted(items, key=lambda item: item[0], reverse=True)


@pytest.fixture(scope="module")
def client(server, api_keys):
    return PodEngine(api_key=api_keys["business"], base_url=server, max_retries=0)


@pytest.fixture(scope="module")
def sponsored(client):
    found = client.podcasts.get_podcast_by_feed_url(rss_feed_url=f"https://feeds.example.test/{FEED}")
    return found.podcast


def test_sponsors_match_the_show_notes(client, sponsored):
    items = sponsored_items(FEED_PATH.read_text())
    every = client.podcasts.get_podcast_sponsors(podcast_id_or_slug=sponsored.id, since_days=3650)
    assert isinstance(every, models.GetPodcastSponsorsResponse)
    assert every.sponsors.episodes_count == len(items)
    assert every.sponsors.episodes_with_sponsors_count == sum(1 for _, names in items if names)
    expected = Counter(name for _, names in items for name in names)
    assert {s.name: s.appearances_count for s in every.sponsors.sponsors} == dict(expected)
    latest = client.podcasts.get_podcast_sponsors(podcast_id_or_slug=sponsored.slug)
    assert latest.sponsors.episodes_count == 10
    expected_latest = Counter(name for _, names in items[:10] for name in names)
    assert {s.name: s.appearances_count for s in latest.sponsors.sponsors} == dict(expected_latest)


def test_episode_catalogue_views(client, sponsored):
    items = sponsored_items(FEED_PATH.read_text())
    for view in ("summary", "full"):
        answer = client.podcasts.get_podcast_episode_catalogue(podcast_id_or_slug=sponsored.id, view=view)
        assert isinstance(answer, models.GetPodcastEpisodeCatalogueResponse)
        catalogue = answer.catalogue
        assert [e.published_at for e in catalogue.episodes] == [published for published, _ in items]
        assert [set(e.sponsors) for e in catalogue.episodes] == [names for _, names in items]
        assert catalogue.truncated is False
        assert catalogue.rhythm.truncated is True


def test_all_details_composes_the_other_calls(client, sponsored):
    answer = client.podcasts.get_podcast_all_details(podcast_id_or_slug=sponsored.id, include_publishing_history=True)
    assert isinstance(answer, models.GetPodcastAllDetailsResponse)
    details = answer.podcast
    assert details.podcast.id == sponsored.id
    guests = client.podcasts.get_podcast_guests(podcast_id_or_slug=sponsored.id)
    assert details.guests.model_dump() == guests.guests.model_dump()
    sponsors = client.podcasts.get_podcast_sponsors(podcast_id_or_slug=sponsored.id)
    assert details.sponsors.model_dump() == sponsors.sponsors.model_dump()
    reviews = client.podcasts.get_podcast_reviews(podcast_id_or_slug=sponsored.id)
    assert details.reviews.podcast_id == reviews.podcast_reviews.podcast_id
    assert len(details.recent_episodes) == 10
    history = details.publishing_history
    assert len(history.monthly_episode_counts.counts) == 24
    # The SDK types this field as a string: an RFC 3339 instant.
    last = datetime.fromisoformat(history.last_episode_at.replace("Z", "+00:00"))
    assert last == sponsored_items(FEED_PATH.read_text())[0][0]


def test_refresh_of_an_unreachable_feed_says_why(client, sponsored):
    answer = client.podcasts.refresh_podcast(podcast_id_or_slug=sponsored.id)
    assert isinstance(answer, models.RefreshPodcastResponseVariant2)
    assert answer.success is False
    assert answer.error_code == "rss_fetch_failed"
    assert answer.error_details.rss_url == f"https://feeds.example.test/{FEED}"


def _quiet_handler(directory):
    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    return partial(Quiet, directory=directory)


def test_refresh_reads_the_feed_again(external):
    if external:
        pytest.skip("needs its own server over a catalog it ingests")
    full = FEED_PATH.read_text()
    start = full.index("<item>")
    end = full.index("</item>", start) + len("</item>")
    with tempfile.TemporaryDirectory(prefix="podlens-refresh-") as scratch:
        feeds = Path(scratch, "feeds")
        feeds.mkdir()
        (feeds / "feed.xml").write_text(full[:start] + full[end:])
        http = ThreadingHTTPServer(("127.0.0.1", 0), _quiet_handler(str(feeds)))
        threading.Thread(target=http.serve_forever, daemon=True).start()
        data_dir = Path(scratch, "data")
        url = f"http://127.0.0.1:{http.server_address[1]}/feed.xml"
        try:
            conftest._podlens("ingest", url, "--no-transcripts", "--allow-private", data_dir=data_dir)
            key = conftest._podlens(
                "keys", "create", "--email", "refresh@example.com", "--plan", "business", data_dir=data_dir
            ).stdout.strip().splitlines()[-1]
            podlens = conftest._binary("PODLENS_BIN", conftest._target_dir() / "debug" / "podlens")
            server = subprocess.Popen(
                # The feed server is on loopback, which refreshes refuse unless allowed.
                [str(podlens), "serve", "--data-dir", str(data_dir), "--port", "0", "--allow-private"],
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            )
            try:
                base = re.search(r"listening on (http://127\.0\.0\.1:\d+)", server.stdout.readline()).group(1)
                own = PodEngine(api_key=key, base_url=base, max_retries=0)
                podcast = own.podcasts.get_podcast_by_feed_url(rss_feed_url=url).podcast
                assert podcast.stats.episode_count == full.count("<item>") - 1
                (feeds / "feed.xml").write_text(full)
                answer = own.podcasts.refresh_podcast(podcast_id_or_slug=podcast.id)
                assert isinstance(answer, models.RefreshPodcastResponseVariant1)
                assert answer.podcast.stats.episode_count == full.count("<item>")
                episodes = own.podcasts.get_podcast_episodes(podcast_id_or_slug=podcast.id, limit=1)
                newest_title = html.unescape(re.search(r"<item>.*?<title>(.*?)</title>", full, re.S).group(1))
                assert episodes.podcast_with_episodes.episodes[0].title == newest_title
            finally:
                server.terminate()
                server.wait(timeout=10)
        finally:
            http.shutdown()
            shutil.rmtree(data_dir, ignore_errors=True)
