//! `podlens score` on a catalog of its own: a show's age counts to the catalog's newest
//! episode, not to the clock, so one catalog scores the same whenever it is scored (a
//! cluster's build and a single node's, minutes apart, once crossed a day boundary and
//! ranked a search differently in the fifth decimal).

use chrono::{DateTime, Duration, TimeZone, Utc};
use podlens_data::Catalog;
use podlens_model::catalog::{EpisodeRecord, FeedBatch, PodcastRecord, episode_id, podcast_id};

fn at(year: i32, month: u32, day: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(year, month, day, 9, 30, 0)
        .single()
        .unwrap()
}

#[test]
fn ages_count_to_the_newest_episode_not_to_the_clock() {
    let dir = tempfile::tempdir().unwrap();
    let feed_url = "https://feeds.example.com/age.xml";
    let podcast = PodcastRecord {
        podcast_id: podcast_id(None, feed_url),
        podcast_slug: "age".into(),
        podcast_rss_feed_url: feed_url.into(),
        podcast_rss_title: "Age".into(),
        total_episodes: 3,
        ..PodcastRecord::default()
    };
    let first = at(2021, 5, 2);
    // The newest episode is over a year old, and one episode claims a date to come:
    // feeds do that, and it must not count.
    let dates = [first, at(2023, 1, 15), Utc::now() + Duration::days(900)];
    let episodes: Vec<EpisodeRecord> = dates
        .iter()
        .enumerate()
        .map(|(number, date)| EpisodeRecord {
            episode_id: episode_id(podcast.podcast_id, &format!("guid-{number}")),
            podcast_id: podcast.podcast_id,
            episode_slug: format!("episode-{number}"),
            episode_guid: Some(format!("guid-{number}")),
            episode_rss_title: format!("Episode {number}"),
            episode_rss_published_at: Some(*date),
            ..EpisodeRecord::default()
        })
        .collect();
    {
        let mut catalog = Catalog::open(dir.path()).unwrap();
        catalog
            .upsert_feed(&FeedBatch {
                podcast: podcast.clone(),
                episodes,
                ..FeedBatch::default()
            })
            .unwrap();
    }
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_podlens"))
        .args(["score", "--data-dir"])
        .arg(dir.path())
        .env("PODLENS_NO_PROGRESS", "true")
        .output()
        .expect("podlens runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let catalog = Catalog::open(dir.path()).unwrap();
    let details = catalog
        .authority_score(podcast.podcast_id)
        .unwrap()
        .expect("the show is scored");
    let expected = (dates[1] - first).num_days() as u64;
    assert_eq!(details.inputs.age_days, Some(expected));
}
