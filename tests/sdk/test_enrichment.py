"""Enrichment through the official SDK: contacts, social profiles, ratings, YouTube,
podcast charts and every chart call, over the fixture catalog (websites crawled from
the corpus, chart snapshots written by the fixture builder).

Every response goes through the SDK's pydantic models.
"""

from __future__ import annotations

import pytest
from podengine import PodEngine, PodEngineAPIError


@pytest.fixture(scope="module")
def client(server, api_keys):
    return PodEngine(api_key=api_keys["business"], base_url=server, max_retries=0)


@pytest.fixture(scope="module")
def latest_chart(client):
    return client.charts.get_latest_chart(chart_type="apple", country="us", category="top podcasts")


@pytest.fixture(scope="module")
def charted_podcast(latest_chart):
    """A catalog podcast on the latest Apple chart."""
    assert latest_chart.chart is not None, "the fixture has an apple/us/top podcasts chart"
    for position in latest_chart.chart.positions:
        if position.podengine_podcast is not None:
            return position.podengine_podcast
    pytest.fail("no catalog podcast on the chart")


def test_chart_types_have_countries_and_categories(client):
    assert client.charts.get_available_countries_by_chart_type(chart_type="apple").countries == ["us"]
    assert client.charts.get_categories_by_chart_type(chart_type="apple").categories == ["top podcasts"]
    assert client.charts.get_categories_by_chart_type(chart_type="spotify").categories == ["comedy"]


def test_latest_chart_positions_are_ranked_and_resolved(latest_chart):
    chart = latest_chart.chart
    positions = [p.position for p in chart.positions]
    assert positions == sorted(positions)
    assert chart.chart.total_positions == len(chart.positions)
    unresolved = sum(1 for p in chart.positions if p.podengine_podcast is None)
    assert chart.chart.unresolved_positions == unresolved
    for position in chart.positions:
        assert len(position.history30d) == 30
        assert position.history30d[-1] == position.position


def test_chart_on_a_date_availability_and_movement(client, latest_chart):
    latest_date = latest_chart.chart.chart.chart_date
    availability = client.charts.get_chart_availability(chart_type="apple", country="us", category="top podcasts")
    assert availability.availability.latest_chart_date == latest_date
    earlier = availability.availability.previous_chart_date
    assert earlier is not None
    chart = client.charts.get_chart(chart_type="apple", country="us", category="top podcasts", date=earlier, positions_limit=3)
    assert chart.chart.chart.chart_date == earlier
    assert len(chart.chart.positions) == 3
    movement = client.charts.get_chart_movement(chart_type="apple", country="us", category="top podcasts", compare="1d", limit=5)
    moved = movement.movement
    assert moved.chart.chart_date == latest_date
    for item in moved.climbers.items:
        assert item.position_change > 0
    for item in moved.fallers.items:
        assert item.position_change < 0


def test_rank_history_covers_the_requested_days(client):
    history = client.charts.get_chart_rank_history(chart_type="apple", country="us", category="top podcasts", days=7, rows=5)
    assert len(history.history.dates) == 7
    assert history.history.chart.actual_rows == len(history.history.rows) <= 5
    for row in history.history.rows:
        assert len(row.ranks) == 7


def test_podcast_chart_appearances_history_and_charts(client, charted_podcast, latest_chart):
    latest_date = latest_chart.chart.chart.chart_date
    appearances = client.charts.get_podcast_chart_appearances(
        identity_type="podcast", podcast_id_or_slug=charted_podcast.id, date=latest_date, chart_type="apple"
    )
    assert appearances.appearances.total_count >= 1
    assert appearances.appearances.identity.podcast_id == charted_podcast.id
    history = client.charts.get_podcast_chart_history(
        identity_type="podcast", podcast_id_or_slug=charted_podcast.slug, chart_type="apple",
        country="us", category="top podcasts", range="30d",
    )
    assert history.history.stats.days_on_chart >= 1
    charts = client.podcasts.get_podcast_charts(podcast_id_or_slug=charted_podcast.id)
    assert charts.total_charts == len(charts.positions) >= 1


def test_contacts_social_reviews_and_youtube_validate(client, charted_podcast):
    contacts = client.podcasts.get_podcast_contacts(podcast_id_or_slug=charted_podcast.id)
    assert contacts.podcast_contacts.podcast_id == charted_podcast.id
    social = client.podcasts.get_podcast_social_media_details(podcast_id_or_slug=charted_podcast.id)
    assert social.social_media_data.podcast_id == charted_podcast.id
    for link in social.social_media_data.social_media_links:
        assert link.url.startswith("http")
    reviews = client.podcasts.get_podcast_reviews(podcast_id_or_slug=charted_podcast.id)
    assert reviews.podcast_reviews.podcast_id == charted_podcast.id
    youtube = client.podcasts.get_podcast_youtube_details(podcast_id_or_slug=charted_podcast.id)
    assert youtube.youtube_data.podcast_id == charted_podcast.id


def test_some_fixture_podcast_has_contacts_and_socials_from_its_website(client):
    found_email = found_social = False
    for podcast in client.podcasts.get_latest_podcasts().podcasts:
        contacts = client.podcasts.get_podcast_contacts(podcast_id_or_slug=podcast.id).podcast_contacts
        found_email = found_email or bool(contacts.emails)
        social = client.podcasts.get_podcast_social_media_details(podcast_id_or_slug=podcast.id).social_media_data
        found_social = found_social or any("podcast-website" in link.sources for link in social.social_media_links)
        if found_email and found_social:
            break
    assert found_email and found_social


def test_bad_chart_type_is_400_with_the_message(client):
    with pytest.raises(PodEngineAPIError) as failure:
        client.charts.get_chart_availability(chart_type="apple", date="not-a-date")
    assert "date must be a date (YYYY-MM-DD)" in str(failure.value)
