"""Drives the official Pod Engine SDK (podengine==0.3.2) against the real server.

Every response goes through the SDK's pydantic models, so a field missing or of the
wrong type fails the test.
"""

from __future__ import annotations

import pytest
from podengine import PodEngine, PodEngineAPIError, models


@pytest.fixture(scope="session")
def client(server, api_keys):
    with_key = PodEngine(api_key=api_keys["business"], base_url=server, max_retries=0)
    return with_key


@pytest.fixture(scope="session")
def a_podcast(client):
    podcasts = client.podcasts.get_latest_podcasts().podcasts
    assert podcasts, "the fixture catalog has podcasts"
    return podcasts[0]


def _term(text: str, targets: list[str], mode: str = "must"):
    return models.AskAgentProjectPodcastRelevancySearchOptionsVariant1SearchTermsItem(
        search_term=text,
        search_type="text",
        search_targets=targets,
        search_term_options=models.AskAgentProjectPodcastRelevancySearchOptionsVariant1SearchTermsItemSearchTermOptions(
            match_mode=mode
        ),
    )


def test_bad_key_is_401_with_the_exact_message(server):
    bad = PodEngine(api_key="not-a-key", base_url=server, max_retries=0)
    with pytest.raises(PodEngineAPIError) as failure:
        bad.podcasts.get_latest_podcasts()
    assert failure.value.status == 401
    assert failure.value.message == "Invalid authorization token"
    assert failure.value.body == {"status": "UNAUTHORIZED", "data": {"message": "Invalid authorization token"}}


def test_free_plan_has_no_api_access(server, api_keys):
    if "free" not in api_keys:
        pytest.skip("keys cannot be created while an external server holds the app database")
    free = PodEngine(api_key=api_keys["free"], base_url=server, max_retries=0)
    with pytest.raises(PodEngineAPIError) as failure:
        free.podcasts.get_latest_podcasts()
    assert failure.value.status == 403


def test_search_podcasts(client, a_podcast):
    word = max(a_podcast.title.split(), key=len).lower()
    response = client.search.search_podcasts(search_terms=[_term(word, ["podcast-title"])])
    assert response.search_mode == "podcasts"
    assert a_podcast.id in [hit.podcast_id for hit in response.result.hits]


def test_search_episodes_and_paging(client):
    first = client.search.search_episodes(search_terms=[], has_transcript=False)
    assert first.search_mode == "episodes"
    assert first.result.hits
    if first.cursor:
        second = client.search.search_episodes(search_terms=[], has_transcript=False, cursor=first.cursor)
        assert not {h.episode_id for h in first.result.hits} & {h.episode_id for h in second.result.hits}


def test_search_validation_message(client):
    with pytest.raises(PodEngineAPIError) as failure:
        client.search.search_podcasts(search_terms=[_term("x", ["podcast-title"])])
    assert failure.value.status == 400
    assert failure.value.message == "Error parsing search options."


def test_podcast_routes(client, a_podcast):
    full = client.podcasts.get_podcast(podcast_id_or_slug=a_podcast.slug)
    assert full.podcast.id == a_podcast.id
    by_feed = client.podcasts.get_podcast_by_feed_url(rss_feed_url=full.podcast.rss_feed_url)
    assert by_feed.podcast.id == a_podcast.id
    looked_up = client.podcasts.get_podcast_id_lookup(slug=a_podcast.slug)
    assert looked_up.podcast.id == a_podcast.id
    several = client.podcasts.get_multiple_podcasts(podcast_ids=[a_podcast.id], details="full")
    assert several.total_found == 1
    episodes = client.podcasts.get_podcast_episodes(podcast_id_or_slug=a_podcast.id, limit=5)
    assert episodes.podcast_with_episodes.podcast.id == a_podcast.id
    assert len(episodes.podcast_with_episodes.episodes) <= 5
    related = client.podcasts.get_podcast_related_podcasts(podcast_id_or_slug=a_podcast.id)
    assert related.related_podcasts.podcast_id == a_podcast.id
    guests = client.podcasts.get_podcast_guests(podcast_id_or_slug=a_podcast.id)
    assert guests.podcast.id == a_podcast.id


def test_lookup_one_of_rule(client, a_podcast):
    with pytest.raises(PodEngineAPIError) as failure:
        client.podcasts.get_podcast_id_lookup(slug=a_podcast.slug, pod_engine_id=a_podcast.id)
    assert failure.value.message == "Only one of appleId, slug, spotifyId, or podlensId can be provided"


def test_episode_routes_and_transcripts(client):
    latest = client.episodes.get_latest_episodes(language="all")
    episodes = [episode for group in latest.latest_podcasts for episode in group.episodes]
    assert episodes
    details = client.episodes.get_episode_details_by_id(episode_id=episodes[0].episode_id)
    assert details.episode.episode_id == episodes[0].episode_id
    with_transcript = client.search.search_episodes(search_terms=[], has_transcript=True)
    assert with_transcript.result.hits, "the fixture has one transcribed episode"
    episode_id = with_transcript.result.hits[0].episode_id
    text = client.episodes.get_episode_transcript_text(episode_id=episode_id)
    assert text.episode_transcript_text.text
    preview = client.episodes.get_episode_transcript_text_preview(episode_id=episode_id)
    assert text.episode_transcript_text.text.startswith(preview.episode_transcript_text.text)
    stamps = client.episodes.get_episode_transcript_timestamps(episode_id=episode_id)
    assert stamps.sentences
    stamps_preview = client.episodes.get_episode_transcript_timestamps_preview(episode_id=episode_id)
    assert stamps_preview.total_sentences == len(stamps.sentences)
    vtt = client.episodes.download_episode_transcript(episode_id=episode_id, format="vtt")
    assert vtt.startswith(b"WEBVTT")
    txt = client.episodes.download_episode_transcript(episode_id=episode_id, format="txt")
    assert txt.decode() == text.episode_transcript_text.text


def test_autocomplete_and_stats(client, a_podcast):
    prefix = a_podcast.title[:4].lower()
    suggestions = client.autocomplete.search_autocomplete_podcasts(query=prefix)
    assert isinstance(suggestions.words, list)
    stats = client.stats.get_rss_stats_podcast2()
    assert stats.podcast2_stats.podcast_level_stats.total_rss_feeds > 0


def test_usage_reads_the_counters(client):
    current = client.usage.get_current()
    assert current.plan in ("business", "agency", "admin")
    searches = next(alias for alias in current.aliases if alias.alias == "searchCount")
    assert searches.used >= 1, "earlier searches of this session are counted"
    daily = client.usage.get_daily(window="7d")
    assert len(daily.days) == 7
    monthly = client.usage.get_monthly(months=3)
    assert len(monthly.months) == 3
    members = client.usage.get_members(window="30d")
    assert members.members and members.members[0].email


def test_team_podcasts(client, a_podcast):
    added = client.teams.add_podcast_to_team(podcast_id=a_podcast.id, sync=True, blacklist=None)
    assert added.team_podcast.sync is True
    listed = client.teams.get_team_podcasts(limit=10, offset=0)
    assert a_podcast.id in [item.podcast_id for item in listed.team_podcasts]
    removed = client.teams.remove_multiple_podcasts_from_team(podcast_ids=[a_podcast.id])
    assert removed.removed_podcasts == 1
