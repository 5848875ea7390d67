//! One episode of a show, drawn from its own random stream so that any episode can be
//! produced on its own (the feed writes them newest first, the website shows the latest).

use chrono::{DateTime, Datelike, Duration, FixedOffset, Utc};

use super::audio;
use super::names::{self, Sponsor};
use super::rng::Rng;
use super::show::{GuidStyle, Show, period_days, person_name};
use super::text::capitalize;
use super::{Context, STREAM_EPISODE};

/// One episode.
#[derive(Debug)]
pub struct Episode {
    /// 1 for the oldest episode.
    pub number: u32,
    pub season: Option<u32>,
    pub episode_type: &'static str,
    pub title: String,
    pub guid: String,
    pub guid_is_permalink: bool,
    pub published: DateTime<Utc>,
    /// `pubDate` as written in the feed (sometimes broken on purpose).
    pub pub_date_text: String,
    pub broken_date: bool,
    pub duration_seconds: u32,
    pub topics: Vec<&'static str>,
    pub guest: Option<String>,
    pub sponsor: Option<&'static Sponsor>,
    pub has_transcript: bool,
    pub summary: String,
}

const TITLE_PATTERNS: &[&str] = &[
    "{T}: what nobody tells you",
    "The truth about {t}",
    "Why {t} matters more than ever",
    "{T} and {u}",
    "{T}, explained",
    "Everything you wanted to know about {t}",
    "A deep dive into {t}",
    "{T} revisited",
    "Listener questions: {t} and {u}",
    "How {t} changed everything",
];

impl Episode {
    pub fn generate(context: &Context, show: &Show, number: u32) -> Episode {
        let mut rng = Rng::for_stream(&[
            context.seed,
            STREAM_EPISODE,
            show.index as u64,
            u64::from(number),
        ]);
        // The show's theme's topics, with a little spill-over from its category.
        let topic_count = rng.between(3, 5) as usize;
        let mut topics: Vec<&'static str> = rng
            .sample_indices(show.theme.topics.len(), topic_count)
            .into_iter()
            .map(|i| show.theme.topics[i])
            .collect();
        if rng.chance(0.1) {
            let spilled = *rng.pick(show.category.topics);
            if !topics.contains(&spilled) {
                let last = topics.len() - 1;
                topics[last] = spilled;
            }
        }
        let guest = rng.chance(show.guest_rate).then(|| person_name(&mut rng));
        let sponsor =
            (!show.sponsors.is_empty() && rng.chance(0.7)).then(|| *rng.pick(&show.sponsors));

        let season_length = if show.serial {
            Some(8)
        } else if show.episode_count > 24 && show.index.is_multiple_of(3) {
            Some(26)
        } else {
            None
        };
        let season = season_length.map(|length| (number - 1) / length + 1);
        let episode_type = if number == 1 && show.serial {
            "trailer"
        } else if rng.chance(0.03) {
            "bonus"
        } else {
            "full"
        };

        let title = episode_title(&mut rng, show, number, &topics, guest.as_deref());
        let published = publish_time(&mut rng, show, number);
        let (pub_date_text, broken_date) = pub_date(&mut rng, show, published);
        let minutes = rng
            .lognormal(show.median_minutes.ln(), 0.25)
            .clamp(5.0, 180.0);
        let duration_seconds = (minutes * 60.0) as u32;
        let has_transcript = rng.chance(context.transcript_share);
        let guid = match show.guid_style {
            GuidStyle::Uuid => {
                let bytes =
                    (u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64())).to_be_bytes();
                uuid::Builder::from_random_bytes(bytes)
                    .into_uuid()
                    .to_string()
            }
            GuidStyle::Permalink => {
                format!("{}{}#episode-{number}", context.base_url, site_path(show))
            }
            GuidStyle::Slug => format!("{}-episode-{number}", show.handle),
            GuidStyle::Tag => format!("tag:{},{}:episode-{number}", show.domain, published.year()),
        };
        let summary = episode_summary(&mut rng, show, &topics, guest.as_deref());
        Episode {
            number,
            season,
            episode_type,
            title,
            guid,
            guid_is_permalink: show.guid_style == GuidStyle::Permalink,
            published,
            pub_date_text,
            broken_date,
            duration_seconds,
            topics,
            guest,
            sponsor,
            has_transcript,
            summary,
        }
    }

    /// The transcript's path under the output directory, when the episode has one.
    pub fn transcript_path(&self, show: &Show) -> Option<String> {
        self.has_transcript.then(|| {
            format!(
                "transcripts/{}/{}.{}",
                show.index,
                self.number,
                show.transcript_format.extension()
            )
        })
    }

    /// The show's short generated clip: every episode of a show plays it.
    pub fn enclosure_url(&self, context: &Context, show: &Show) -> String {
        format!("{}/{}", context.base_url, audio::clip_path(show.audio_clip))
    }

    /// Bytes of the clip the enclosure points at.
    pub fn enclosure_length(&self) -> u64 {
        audio::clip_bytes()
    }
}

fn site_path(show: &Show) -> String {
    format!("/sites/{}/", show.slug)
}

fn episode_title(
    rng: &mut Rng,
    show: &Show,
    number: u32,
    topics: &[&str],
    guest: Option<&str>,
) -> String {
    let pattern = *rng.pick(TITLE_PATTERNS);
    let core = pattern
        .replace("{T}", &capitalize(topics[0]))
        .replace("{t}", topics[0])
        .replace("{u}", topics[1]);
    let core = match guest {
        Some(guest) if rng.chance(0.6) => format!("{core} with {guest}"),
        _ => core,
    };
    match number % 3 {
        0 if show.index.is_multiple_of(2) => format!("Ep. {number}: {core}"),
        1 if show.index % 5 == 1 => format!("#{number} {core}"),
        _ => core,
    }
}

/// Episode `number`'s time: one period after the previous, moved earlier by up to
/// 30% of a period, so times strictly increase with the number.
fn publish_time(rng: &mut Rng, show: &Show, number: u32) -> DateTime<Utc> {
    let period_seconds = period_days(show.cadence) * 86_400.0;
    let steps_back = f64::from(show.episode_count - number);
    let jitter = if number == show.episode_count {
        0.0
    } else {
        rng.unit() * 0.3 * period_seconds
    };
    let seconds_back = (steps_back * period_seconds + jitter) as i64;
    let exact = show.last_published - Duration::seconds(seconds_back);
    exact - Duration::seconds(exact.timestamp().rem_euclid(60))
}

/// The `pubDate` text: RFC 822 in the show's zone, or, on a share of the items of
/// feeds with broken dates, a form real feeds get wrong.
fn pub_date(rng: &mut Rng, show: &Show, published: DateTime<Utc>) -> (String, bool) {
    let offset = FixedOffset::east_opt(show.utc_offset_minutes * 60)
        .unwrap_or_else(|| FixedOffset::east_opt(0).expect("zero offset"));
    let local = published.with_timezone(&offset);
    let correct = if show.writes_gmt && show.utc_offset_minutes == 0 {
        local.format("%a, %d %b %Y %H:%M:%S GMT").to_string()
    } else {
        local.format("%a, %d %b %Y %H:%M:%S %z").to_string()
    };
    if !show.breakage.bad_dates || !rng.chance(0.3) {
        return (correct, false);
    }
    let broken = match rng.below(5) {
        0 => local.format("%a, 32 %b %Y %H:%M:%S %z").to_string(),
        1 => local.format("%a, %d %b %Y %H:%M:%S").to_string(),
        2 => published.format("%Y-%m-%dT%H:%M:%SZ").to_string(),
        3 => {
            let wrong_day = local + Duration::days(1);
            format!(
                "{}, {}",
                wrong_day.format("%a"),
                local.format("%d %b %Y %H:%M:%S %z")
            )
        }
        _ => local.format("%d %B %Y").to_string(),
    };
    (broken, true)
}

fn episode_summary(rng: &mut Rng, show: &Show, topics: &[&str], guest: Option<&str>) -> String {
    let host = show.hosts.first().map_or("the host", String::as_str);
    let opening = match guest {
        Some(guest) => format!(
            "{host} sits down with {guest} to talk about {} and {}.",
            topics[0], topics[1]
        ),
        None => format!(
            "{host} takes a close look at {} and {}.",
            topics[0], topics[1]
        ),
    };
    let follow = *rng.pick(&[
        "Along the way we answer your questions and share what we learned the hard way.",
        "We cover the myths, the data and the practical steps you can take this week.",
        "Plus: a story you will not want to miss and our picks of the week.",
        "It is one of our favorite conversations so far.",
    ]);
    let mut summary = format!("{opening} {follow}");
    if let Some(sponsor) = rng.chance(0.2).then(|| rng.pick(names::SPONSORS)) {
        summary.push_str(&format!(" Thanks to {} for their support.", sponsor.name));
    }
    summary
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn episodes_are_in_publication_order_and_end_at_the_last_date() {
        let context = Context::new(42, "http://127.0.0.1:8900", 0.1);
        for index in 0..40 {
            let show = Show::generate(&context, index);
            let count = show.episode_count.min(50);
            let times: Vec<DateTime<Utc>> = (1..=count)
                .map(|number| {
                    Episode::generate(&context, &show, show.episode_count - count + number)
                        .published
                })
                .collect();
            assert!(
                times.windows(2).all(|pair| pair[0] < pair[1]),
                "show {index}"
            );
            assert!(
                times
                    .last()
                    .is_some_and(|last| *last <= show.last_published)
            );
        }
    }

    #[test]
    fn durations_stay_between_five_minutes_and_three_hours() {
        let context = Context::new(1, "http://127.0.0.1:8900", 0.1);
        let show = Show::generate(&context, 0);
        for number in 1..=show.episode_count {
            let episode = Episode::generate(&context, &show, number);
            assert!((300..=10_800).contains(&episode.duration_seconds));
        }
    }
}
