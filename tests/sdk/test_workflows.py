"""Drives the SDK's project methods (podengine==0.3.2) against the real server.

The SDK has no call that creates a project, so the test creates one with
`PUT /api/v1/projects` (SPEC §7) and then uses only SDK methods; every response goes
through the SDK's pydantic models.
"""

from __future__ import annotations

import httpx
import pytest
from podengine import PodEngine, PodEngineAPIError


@pytest.fixture(scope="module")
def business(server, api_keys):
    return PodEngine(api_key=api_keys["business"], base_url=server, max_retries=0)


@pytest.fixture(scope="module")
def project(server, api_keys):
    created = httpx.put(
        f"{server}/api/v1/projects",
        headers={"Authorization": api_keys["business"]},
        json={"name": "SDK workflow list", "projectTypes": ["guest-booking"]},
    )
    assert created.status_code == 200, created.text
    project = created.json()["data"]["project"]
    yield project
    httpx.delete(f"{server}/api/v1/projects/{project['projectId']}", headers={"Authorization": api_keys["business"]})


@pytest.fixture(scope="module")
def two_podcasts(business):
    podcasts = business.podcasts.get_latest_podcasts().podcasts
    assert len(podcasts) >= 2, "the fixture catalog has at least two podcasts"
    return podcasts[:2]


def test_projects_list_and_details_validate(business, project):
    listed = business.projects.get_projects()
    assert project["projectId"] in [item.project_id for item in listed.projects]
    only_drafts = business.projects.get_projects(states=["DRAFT"])
    assert project["projectId"] not in [item.project_id for item in only_drafts.projects]
    details = business.projects.get_project_details(project_slug=project["slug"])
    assert details.project.name == "SDK workflow list"
    assert details.project.project_types == ["guest-booking"]
    assert details.project.status == "ACTIVE"


def test_update_project(business, project):
    updated = business.projects.update_project(
        project_slug=project["slug"], project_purpose="Book gardening guests", project_keywords=["soil"]
    )
    assert updated.project.project_id == project["projectId"]
    details = business.projects.get_project_details(project_slug=project["projectId"])
    assert details.project.project_purpose == "Book gardening guests"
    assert details.project.project_keywords == ["soil"]


def test_listed_podcast_lifecycle(business, project, two_podcasts):
    first, second = two_podcasts
    added = business.projects.add_podcast_to_project(
        project_slug=project["slug"], podcast_id=first.id, state="prospect", labels=["automated"]
    )
    listed = added.listed_podcast
    assert listed.podcast.podcast_id == first.id
    assert listed.status == "prospect"
    assert [entry.action_type for entry in listed.activity_history] == ["added-to-list"]

    moved = business.projects.update_project_listed_podcast(
        project_slug=project["slug"], listed_podcast_id=listed.listed_podcast_id, state="booked", priority="urgent"
    )
    history = moved.updated_listed_podcast.activity_history
    assert [entry.action_type for entry in history] == ["added-to-list", "update-state", "update-priority"]
    assert (history[1].from_value, history[1].to_value) == ("prospect", "booked")
    assert moved.options.state == "booked"

    second_added = business.projects.add_podcast_to_project(
        project_slug=project["slug"], podcast_id=second.id, state="qualified", priority="low"
    )
    listing = business.projects.get_projects().projects
    mine = next(item for item in listing if item.project_id == project["projectId"])
    assert mine.listed_podcasts_count == 2
    assert (mine.state_counts.booked, mine.state_counts.qualified) == (1, 1)
    assert mine.recent_activities[0].type == "added-to-list"

    removed = business.projects.remove_listed_podcast_from_project(
        project_slug=project["slug"], listed_podcast_id=second_added.listed_podcast.listed_podcast_id
    )
    assert removed.listed_podcast_id == second_added.listed_podcast.listed_podcast_id
    details = business.projects.get_project_details(project_slug=project["slug"])
    assert details.project.listed_podcasts_count == 1


def test_unknown_project_is_404(business):
    with pytest.raises(PodEngineAPIError) as failure:
        business.projects.get_project_details(project_slug="no-such-project")
    assert failure.value.status == 404
    assert failure.value.message == "Project not found: no-such-project"
