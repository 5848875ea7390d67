//! Two feeds that declare one `podcast:guid`.
//!
//! A podcast's id comes from its `podcast:guid` when its feed declares one, and an
//! episode's id from its podcast's id and its item's guid, so two feeds declaring one
//! guid (a show published on two hosts, or moved without a redirect and the old feed
//! left up) give one podcast id and, for the items both list, the same episode ids. The
//! catalog keeps them as one show, whichever feed was stored or read again first:
//!
//! - The podcast's record (its `podcasts` row and its persons) comes from one of them,
//!   the podcast's feed: the one whose newest episode is the newest, then the one
//!   listing more episodes (the order in which `indexer/src/dedup.rs` keeps one copy of
//!   a show among podcasts of different ids), then the feed URL that sorts first. Only
//!   what the catalog holds of a feed decides, so the choice does not depend on the order
//!   of the reads. (`itunes:new-feed-url` would say which feed replaced which, but the
//!   catalog does not keep it.)
//! - Its episodes are the union of both feeds' by episode id: an episode both list is
//!   one episode, as the podcast's feed has it; an episode only the other feed lists is
//!   kept as that feed has it (the last read's, should a third feed list it too),
//!   marked as not in the podcast's feed (`episodeRemovedFromFeedAt`), as an episode
//!   the podcast's feed dropped is. The persons are the podcast's feed's.
//! - The other feed is an alternate feed of the podcast: its fetches are logged under its
//!   own URL, its polling state names the podcast, and `feeds_to_poll` lists it, so a
//!   read that finds it the newer makes it the podcast's feed. Each write that takes only
//!   an alternate feed's episodes says so in the log (info).
//!
//! The batch writes (`upsert.rs`), a server's re-read feed (`changes.rs`) and the merge
//! of a cluster's partitions (`merge.rs`) all choose with [`FeedClaim`].

use std::cmp::Ordering;

use podlens_model::catalog::PodcastRecord;

/// What decides which of two feeds of one podcast speaks for it: what each says of
/// itself in its podcast record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FeedClaim {
    /// When its newest episode was published (epoch microseconds), if it dates any.
    pub(crate) newest_episode: Option<i64>,
    /// How many episodes it lists.
    pub(crate) episodes: i64,
    pub(crate) feed_url: String,
}

impl FeedClaim {
    pub(crate) fn of(podcast: &PodcastRecord) -> FeedClaim {
        FeedClaim {
            newest_episode: podcast
                .last_episode_date
                .map(|date| date.timestamp_micros()),
            episodes: podcast.total_episodes,
            feed_url: podcast.podcast_rss_feed_url.clone(),
        }
    }

    /// `Greater` when `self` speaks for the podcast rather than `other`: the newer newest
    /// episode (a feed dating none comes last), then more episodes, then the feed URL
    /// that sorts first. Two claims of one feed URL are equal: a feed read again
    /// replaces its own record.
    pub(crate) fn precedence(&self, other: &FeedClaim) -> Ordering {
        if self.feed_url == other.feed_url {
            return Ordering::Equal;
        }
        self.newest_episode
            .cmp(&other.newest_episode)
            .then(self.episodes.cmp(&other.episodes))
            .then_with(|| other.feed_url.cmp(&self.feed_url))
    }

    /// Whether `self`, read now, yields to `held`, the feed the catalog's record of the
    /// podcast comes from: only another feed of higher precedence keeps the record.
    pub(crate) fn yields_to(&self, held: &FeedClaim) -> bool {
        held.precedence(self) == Ordering::Greater
    }
}

/// Logs that a read of `alternate` left the podcast's record to `kept`.
pub(crate) fn log_alternate(podcast_id: &uuid::Uuid, kept: &str, alternate: &str) {
    tracing::info!(
        podcast = %podcast_id,
        kept,
        alternate,
        "two feeds declare one podcast:guid: the podcast's record stays the kept feed's, the alternate feed adds only the episodes the kept feed lacks"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim(newest: Option<i64>, episodes: i64, url: &str) -> FeedClaim {
        FeedClaim {
            newest_episode: newest,
            episodes,
            feed_url: url.to_owned(),
        }
    }

    #[test]
    fn the_newest_episode_decides_then_the_episode_count_then_the_url() {
        let a = "https://a.example/feed";
        let b = "https://b.example/feed";
        assert!(claim(Some(1), 1, b).yields_to(&claim(Some(2), 1, a)));
        assert!(!claim(Some(2), 1, a).yields_to(&claim(Some(1), 9, b)));
        assert!(claim(None, 9, a).yields_to(&claim(Some(1), 1, b)));
        assert!(claim(Some(1), 1, a).yields_to(&claim(Some(1), 2, b)));
        assert!(claim(Some(1), 1, b).yields_to(&claim(Some(1), 1, a)));
        assert!(!claim(Some(1), 1, a).yields_to(&claim(Some(1), 1, b)));
        // A feed read again replaces its own record, whatever it says now.
        assert!(!claim(None, 0, a).yields_to(&claim(Some(5), 5, a)));
    }
}
