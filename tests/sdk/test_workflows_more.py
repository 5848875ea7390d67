"""Drives the SDK's alerts, polling, agent, guest profile, transcription, strategy and
transcript passage methods (podengine==0.3.2) against the real server; every response
goes through the SDK's pydantic models.
"""

from __future__ import annotations

import io
import time

import docx
import httpx
import pytest
from podengine import PodEngine, PodEngineAPIError
from podengine._generated import models


@pytest.fixture(scope="module")
def business(server, api_keys):
    return PodEngine(api_key=api_keys["business"], base_url=server, max_retries=0)


def _wait(check, seconds=30.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    pytest.fail("condition not reached in time")


@pytest.fixture(scope="module")
def transcript_episode(business):
    """An episode of the fixture catalog that has a transcript."""
    podcasts = business.podcasts.get_latest_podcasts(has_transcripts=True).podcasts
    assert podcasts, "the fixture catalog has a podcast with a transcript"
    episodes = business.podcasts.get_podcast_episodes(podcast_id_or_slug=podcasts[0].id, has_transcript=True)
    found = episodes.podcast_with_episodes.episodes
    assert found
    return found[0]


def test_alert_configs_round_trip(business):
    created = business.alerts.create_alert_config(
        alert_name="SDK Linux", alert_type="custom-keyword", value="Linux",
        email_settings=models.CreateAlertConfigEmailSettings(frequency="weekly"),
    ).created_alert_config
    assert created.alert_settings.value == "Linux"
    assert created.email_settings.frequency == "weekly"
    fetched = business.alerts.get_alert_config(alert_config_id=created.id).alert_config
    assert fetched.alert_name == "SDK Linux"
    listed = business.alerts.get_alert_configs(sort_by="alertName", sort_direction="asc")
    assert created.id in [config.id for config in listed.alert_configs]
    updated = business.alerts.update_alert_config(
        alert_config_id=created.id, updates=models.UpdateAlertConfigUpdates(alert_name="SDK Linux renamed")
    ).updated_alert_config
    assert updated.alert_name == "SDK Linux renamed"

    # A new alert is matched against the catalog in the background.
    matches = _wait(lambda: business.alerts.get_alert_episode_matches(alert_config_id=created.id, page_size=5).matches)
    for match in matches:
        assert "linux" in " ".join(mention.snippet.lower() for mention in match.mentions)
    history = business.alerts.get_alert_match_history(alert_config_id=created.id)
    assert history.total_alert_matches >= len(matches)
    updates = business.polling.get_updates(limit=5, event_types=["alert_match"], alert_config_id=created.id)
    assert updates.events and all(event.event_type == "alert_match" for event in updates.events)

    deleted = business.alerts.delete_alert_config(alert_config_id=created.id)
    assert deleted.deleted_alert_config_id == created.id
    with pytest.raises(PodEngineAPIError):
        business.alerts.get_alert_config(alert_config_id=created.id)


def test_agent_calls(business, server, api_keys):
    spellings = business.agent.get_alternative_spellings(value="Stephen Jackson").spellings
    assert spellings and "Stephen Jackson" not in spellings
    project = httpx.put(
        f"{server}/api/v1/projects",
        headers={"Authorization": api_keys["business"]},
        json={"name": "SDK relevancy list", "projectKeywords": ["linux"]},
    ).json()["data"]["project"]
    try:
        podcast = business.podcasts.get_latest_podcasts().podcasts[0]
        answer = business.agent.ask_agent_project_podcast_relevancy(
            project_id=project["projectId"], podcast_id=podcast.id
        ).result.answer
        assert 1 <= answer.rating <= 5
        assert answer.justification
        strategies = business.projects.get_project_strategies(project_slug=project["slug"])
        assert strategies.strategies == []
    finally:
        httpx.delete(f"{server}/api/v1/projects/{project['projectId']}", headers={"Authorization": api_keys["business"]})


def test_guest_profile_lifecycle(business):
    created = business.guest_profiles.create_guest_profile(
        first_name="Ada", last_name="Lovelace",
        short_bio="Ada writes about analytical engines. She explains how machines compose music.",
        topics_to_discuss=["analytical engines"],
    )
    profile_id = created.guest_profile_id
    profile = _wait(
        lambda: (p := business.guest_profiles.get_guest_profile_details(guest_profile_id_or_project_id=profile_id))
        and p.guest_bio is not None and p
    )
    assert profile.name == "Ada Lovelace"
    assert profile.status == "ACTIVE"
    assert business.guest_profiles.update_guest_profile_bio(guest_profile_id=profile_id, long_bio="Longer.").success
    assert business.guest_profiles.update_guest_profile_contact_details(
        guest_profile_id=profile_id, phone="+44 20 7946 0000"
    ).success
    assert business.guest_profiles.update_guest_profile_social_media_links(
        guest_profile_id=profile_id,
        body=[models.UpdateGuestProfileSocialMediaLinksBodyItem(social_media_type="github", url="https://github.com/ada")],
    ).success
    regenerated = business.guest_profiles.regenerate_bio(guest_profile_id=profile_id)
    assert regenerated.result is not None and regenerated.result.answer.short_bio
    pdf = business.guest_profiles.download_guest_profile(guest_profile_id=profile_id, format="pdf")
    assert pdf.startswith(b"%PDF")
    # Regression: docx, one of the SDK's three formats, was refused ('Invalid format "docx"').
    # Opened by python-docx, an independent reader of the format.
    word = docx.Document(io.BytesIO(
        business.guest_profiles.download_guest_profile(guest_profile_id=profile_id, format="docx")
    ))
    paragraphs = [(p.style.name, p.text) for p in word.paragraphs]
    assert paragraphs[0] == ("Title", "Ada Lovelace")
    assert ("Heading 1", "Contact") in paragraphs and ("Heading 1", "Bio") in paragraphs
    assert any("+44 20 7946 0000" in text for _, text in paragraphs)
    assert any("analytical engines" in text for _, text in paragraphs)
    details = business.guest_profiles.get_guest_profile_details(guest_profile_id_or_project_id=created.project_id)
    assert details.phone == "+44 20 7946 0000"
    assert [link.url for link in details.social_media_links] == ["https://github.com/ada"]
    assert business.guest_profiles.archive_guest_profile(guest_profile_id=profile_id).success
    archived = business.guest_profiles.get_guest_profile_details(guest_profile_id_or_project_id=profile_id)
    assert archived.status == "ARCHIVED"


def test_transcription_requests(business, transcript_episode):
    answer = business.transcriptions.request_episode_transcription(episode_id=transcript_episode.episode_id)
    assert answer.message
    requests = _wait(
        lambda: [
            r for r in business.transcriptions.get_transcription_requests(limit=20).requests
            if r.episode_id == transcript_episode.episode_id and r.completed_at is not None
        ]
    )
    assert requests[0].failure_reason is None
    history = business.teams.get_team_request_history(limit=20, request_type="transcription")
    assert transcript_episode.episode_id in [r.episode_id for r in history.requests]
    podcast = business.transcriptions.request_podcast_transcription(
        podcast_id=transcript_episode.podcast_id, type="latest", request_future_episodes=False
    )
    assert len(podcast.episode_ids) <= 1
    events = business.polling.get_updates(limit=50, event_types=["request_completed"])
    assert any(event.data.episode_id == transcript_episode.episode_id for event in events.events)


def test_transcript_passages(business, transcript_episode):
    passages = business.search.get_transcript_passages(
        episode_id=transcript_episode.episode_id,
        search_options=models.GetTranscriptPassagesSearchOptions(
            search_terms=[
                models.AskAgentProjectPodcastRelevancySearchOptionsVariant2SearchTermsItem(
                    search_term="text line",
                    search_type="text",
                    search_targets=["transcript"],
                    search_term_options=models.AskAgentProjectPodcastRelevancySearchOptionsVariant1SearchTermsItemSearchTermOptions(
                        match_mode="must"
                    ),
                )
            ]
        ),
        page_size=2,
    )
    assert passages.episode_id == transcript_episode.episode_id
    assert passages.best_passage is not None
    assert passages.total.value >= 1
