//! One podcast's profile: everything about a show that its feed, website, transcripts
//! and chart entries share, drawn from the show's own random stream.

use chrono::{DateTime, Duration, Utc};
use podlens_model::{DirectoryKind, SocialKind};
use uuid::Uuid;

use super::links::{self, EmailStyle, Phone};
use super::names::{self, Language, Place, Sponsor};
use super::rng::Rng;
use super::text::{ascii_fold, slugify};
use super::themes::{self, Theme};
use super::vocab::{self, Category};
use super::{Context, STREAM_SHOW};

/// How often a show publishes; the names are the spec's update frequencies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cadence {
    Daily,
    Weekly,
    BiWeekly,
    Monthly,
    /// Published weekly or bi-weekly once, nothing for a year or more.
    Stale,
}

impl Cadence {
    pub fn as_str(self) -> &'static str {
        match self {
            Cadence::Daily => "daily",
            Cadence::Weekly => "weekly",
            Cadence::BiWeekly => "bi-weekly",
            Cadence::Monthly => "monthly",
            Cadence::Stale => "stale",
        }
    }
}

/// How a show writes `itunes:duration`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DurationStyle {
    Seconds,
    Clock,
    MinutesSeconds,
}

/// How a show writes item guids.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GuidStyle {
    Uuid,
    Permalink,
    Slug,
    Tag,
}

/// The file format of a show's transcripts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TranscriptFormat {
    Vtt,
    Txt,
}

impl TranscriptFormat {
    pub fn extension(self) -> &'static str {
        match self {
            TranscriptFormat::Vtt => "vtt",
            TranscriptFormat::Txt => "txt",
        }
    }

    pub fn mime(self) -> &'static str {
        match self {
            TranscriptFormat::Vtt => "text/vtt",
            TranscriptFormat::Txt => "text/plain",
        }
    }
}

/// The real-world faults a feed carries on purpose.
#[derive(Debug, Clone, Copy, Default)]
pub struct Breakage {
    /// Some items have invalid or non-RFC-822 `pubDate`s (the XML stays well-formed).
    pub bad_dates: bool,
    /// A description holds a raw `&nbsp;`: the file is not well-formed XML.
    pub undefined_entity: bool,
    /// The file is encoded as ISO-8859-1 and says so in its XML declaration.
    pub latin1: bool,
}

/// One podcast's profile.
#[derive(Debug)]
pub struct Show {
    pub index: usize,
    pub title: String,
    pub description: String,
    pub slug: String,
    pub handle: String,
    pub domain: String,
    pub language: &'static Language,
    pub language_tag: &'static str,
    pub category: &'static Category,
    /// What the show is about: its subcategory, its name's words and its topics.
    pub theme: &'static Theme,
    pub subcategory: Option<&'static str>,
    pub second_category: Option<&'static Category>,
    pub hosts: Vec<String>,
    pub author: String,
    pub explicit: bool,
    pub explicit_legacy: bool,
    pub serial: bool,
    pub cadence: Cadence,
    pub episode_count: u32,
    pub first_published: DateTime<Utc>,
    pub last_published: DateTime<Utc>,
    pub median_minutes: f64,
    pub guest_rate: f64,
    pub podcast_guid: Option<Uuid>,
    pub locked: Option<bool>,
    pub blocked: bool,
    pub funding_url: Option<String>,
    pub place: Option<&'static Place>,
    pub value_address: Option<String>,
    pub generator: &'static str,
    pub transcript_format: TranscriptFormat,
    pub sponsors: Vec<&'static Sponsor>,
    pub emails: Vec<(String, EmailStyle)>,
    pub phones: Vec<Phone>,
    pub socials: Vec<(SocialKind, String)>,
    pub directories: Vec<(DirectoryKind, String)>,
    pub apple_id: Option<u64>,
    pub spotify_id: Option<String>,
    pub popularity: f64,
    pub breakage: Breakage,
    /// UTC offset of the show's `pubDate`s, in minutes, and whether it is written `GMT`.
    pub utc_offset_minutes: i32,
    pub writes_gmt: bool,
    pub duration_style: DurationStyle,
    pub guid_style: GuidStyle,
    pub cdata_descriptions: bool,
    /// The generated clip its episodes play (`audio/clip-<n>.wav`).
    pub audio_clip: u64,
}

/// Namespace of `podcast:guid` (Podcasting 2.0: UUID v5 of the feed URL without scheme).
const PODCAST_GUID_NAMESPACE: Uuid = Uuid::from_u128(0xead4_c236_bf58_58c6_a2c6_a6b2_8d12_8cb6);

impl Show {
    /// The feed URL of show `index` served from `base_url`.
    pub fn feed_url(context: &Context, index: usize) -> String {
        format!("{}/feeds/{index}.xml", context.base_url)
    }

    pub fn site_url(&self, context: &Context) -> String {
        format!("{}/sites/{}/", context.base_url, self.slug)
    }

    pub fn image_url(&self, context: &Context) -> String {
        format!("{}/sites/{}/cover.svg", context.base_url, self.slug)
    }

    pub fn generate(context: &Context, index: usize) -> Show {
        let mut rng = Rng::for_stream(&[context.seed, STREAM_SHOW, index as u64]);
        let language_table: Vec<(&Language, u32)> = names::LANGUAGES
            .iter()
            .map(|language| (language, language.per_mille))
            .collect();
        let language = *rng.weighted(&language_table);
        let language_tag = *rng.pick(language.tags);
        let category_table: Vec<(&Category, u32)> = vocab::CATEGORIES
            .iter()
            .map(|category| (category, category.weight))
            .collect();
        let category = *rng.weighted(&category_table);
        let theme = *rng.pick(&themes::themes_of(category.name));
        let subcategory = theme.subcategory;
        let second_category = rng
            .chance(0.25)
            .then(|| *rng.weighted(&category_table))
            .filter(|c| c.name != category.name);

        let title = show_title(&mut rng, language, theme);
        let (handle, slug) = handle_and_slug(&mut rng, &title, index);
        let domain = format!("{handle}.com");

        let host_count = *rng.weighted(&[(1usize, 55), (2, 35), (3, 10)]);
        let hosts: Vec<String> = (0..host_count).map(|_| person_name(&mut rng)).collect();
        let author = if rng.chance(0.3) {
            format!("{} Media", title_case_word(&handle_base(&handle)))
        } else {
            hosts.join(" & ")
        };

        let episode_count = episode_count(&mut rng);
        let cadence = cadence(&mut rng, episode_count);
        let (first_published, last_published) =
            publish_window(&mut rng, context.reference, cadence, episode_count);
        let popularity = rng.lognormal(0.0, 1.1) * (1.0 + f64::from(episode_count).ln() / 3.0);

        let breakage = Breakage {
            bad_dates: rng.chance(0.03),
            undefined_entity: rng.chance(0.01),
            latin1: language.latin1 && rng.chance(0.012),
        };

        let emails = links::emails(&mut rng, &hosts, &handle, &domain);
        let place = rng.chance(0.2).then(|| rng.pick(names::PLACES));
        let phones = links::phones(&mut rng, place.map(|p| p.country));
        let socials = links::socials(&mut rng, &handle, &phones);
        let apple_id = rng
            .chance(0.85)
            .then(|| 1_000_000_000 + index as u64 * 100_003 + rng.below(100_000));
        let spotify_id = rng
            .chance(0.7)
            .then(|| rng.string_from(super::rng::BASE62, 22));
        let directories = links::directories(
            &mut rng,
            &slug_stem(&slug),
            &handle,
            apple_id,
            spotify_id.as_deref(),
            &Show::feed_url(context, index),
        );

        let podcast_guid = rng.chance(0.8).then(|| {
            let feed_url = Show::feed_url(context, index);
            let without_scheme = feed_url
                .split_once("://")
                .map_or(feed_url.as_str(), |(_, rest)| rest);
            Uuid::new_v5(
                &PODCAST_GUID_NAMESPACE,
                without_scheme.trim_end_matches('/').as_bytes(),
            )
        });
        let sponsor_count = *rng.weighted(&[(0usize, 35), (1, 35), (2, 20), (3, 10)]);
        let sponsors = rng
            .sample_indices(names::SPONSORS.len(), sponsor_count)
            .into_iter()
            .map(|i| &names::SPONSORS[i])
            .collect();
        let funding_url = rng.chance(0.15).then(|| {
            socials
                .iter()
                .find(|(kind, _)| *kind == SocialKind::Patreon)
                .map(|(_, url)| url.clone())
                .unwrap_or_else(|| format!("https://www.buymeacoffee.com/{handle}"))
        });
        let value_address = rng.chance(0.05).then(|| {
            let mut key = String::from(if rng.chance(0.5) { "02" } else { "03" });
            key.push_str(&rng.string_from(b"0123456789abcdef", 64));
            key
        });
        let description = show_description(&mut rng, &title, theme, &hosts);

        Show {
            index,
            description,
            slug,
            domain,
            language,
            language_tag,
            category,
            theme,
            subcategory,
            second_category,
            author,
            explicit: rng.chance(0.15),
            explicit_legacy: rng.chance(0.4),
            serial: rng.chance(0.08),
            cadence,
            episode_count,
            first_published,
            last_published,
            median_minutes: rng.lognormal(45f64.ln(), 0.5).clamp(8.0, 150.0),
            guest_rate: *rng.pick(&[0.0, 0.2, 0.6, 0.9]),
            podcast_guid,
            locked: rng.chance(0.3).then(|| rng.chance(0.8)),
            blocked: rng.chance(0.01),
            funding_url,
            place,
            value_address,
            generator: rng.pick::<&str>(names::GENERATORS),
            transcript_format: if rng.chance(0.7) {
                TranscriptFormat::Vtt
            } else {
                TranscriptFormat::Txt
            },
            sponsors,
            emails,
            phones,
            socials,
            directories,
            apple_id,
            spotify_id,
            popularity,
            breakage,
            utc_offset_minutes: *rng.pick(&[0, 0, -300, -240, -480, -420, 60, 120, 600]),
            writes_gmt: rng.chance(0.3),
            duration_style: *rng.weighted(&[
                (DurationStyle::Seconds, 45),
                (DurationStyle::Clock, 45),
                (DurationStyle::MinutesSeconds, 10),
            ]),
            guid_style: *rng.weighted(&[
                (GuidStyle::Uuid, 45),
                (GuidStyle::Permalink, 25),
                (GuidStyle::Slug, 20),
                (GuidStyle::Tag, 10),
            ]),
            cdata_descriptions: rng.chance(0.75),
            audio_clip: rng.below(super::audio::CLIPS),
            hosts,
            handle,
            title,
        }
    }
}

/// Episodes per show: log-normal (median ~22, mean ~50), 1 to 3,000.
fn episode_count(rng: &mut Rng) -> u32 {
    let drawn = rng.lognormal(3.1, 1.27).round();
    drawn.clamp(1.0, 3000.0) as u32
}

/// A cadence that fits the episode count within about twenty years.
fn cadence(rng: &mut Rng, episode_count: u32) -> Cadence {
    let drawn = *rng.weighted(&[
        (Cadence::Daily, 8),
        (Cadence::Weekly, 42),
        (Cadence::BiWeekly, 18),
        (Cadence::Monthly, 14),
        (Cadence::Stale, 18),
    ]);
    let years = f64::from(episode_count) * period_days(drawn) / 365.0;
    match drawn {
        _ if years <= 20.0 => drawn,
        Cadence::Monthly | Cadence::BiWeekly if f64::from(episode_count) * 7.0 / 365.0 <= 20.0 => {
            Cadence::Weekly
        }
        _ if f64::from(episode_count) * 7.0 / 365.0 <= 20.0 => drawn,
        _ => Cadence::Daily,
    }
}

/// Days between episodes of a cadence (a stale show published weekly while active).
pub fn period_days(cadence: Cadence) -> f64 {
    match cadence {
        Cadence::Daily => 1.0,
        Cadence::Weekly | Cadence::Stale => 7.0,
        Cadence::BiWeekly => 14.0,
        Cadence::Monthly => 30.0,
    }
}

/// First and last publication times: active shows published recently, stale ones
/// stopped one to six years before the reference date.
fn publish_window(
    rng: &mut Rng,
    reference: DateTime<Utc>,
    cadence: Cadence,
    episode_count: u32,
) -> (DateTime<Utc>, DateTime<Utc>) {
    let period = period_days(cadence);
    let days_since_last = match cadence {
        Cadence::Stale => 365.0 + rng.unit() * 5.0 * 365.0,
        _ => rng.unit() * period,
    };
    let hour_of_day = rng.between(4, 20) as i64;
    let last_day = reference - Duration::days(days_since_last.ceil() as i64);
    let last = last_day
        .date_naive()
        .and_hms_opt(hour_of_day as u32, 0, 0)
        .map_or(last_day, |naive| naive.and_utc());
    let span_seconds = (f64::from(episode_count.saturating_sub(1)) * period * 86_400.0) as i64;
    (last - Duration::seconds(span_seconds), last)
}

fn show_title(rng: &mut Rng, language: &Language, theme: &Theme) -> String {
    let word = *rng.pick(theme.title_words);
    let template = *rng.pick(language.title_templates);
    let mut title = template.replace("{w}", word);
    if language.code == "en" && rng.chance(0.25) {
        let host_style = format!("{} with {}", title, person_name(rng));
        title = host_style;
    }
    title
}

/// A person's display name.
pub fn person_name(rng: &mut Rng) -> String {
    format!(
        "{} {}",
        rng.pick(names::FIRST_NAMES),
        rng.pick(names::LAST_NAMES)
    )
}

/// The show's social handle (letters then the index: at most 15 word characters,
/// unique per show) and its site slug (the title's slug, then the index).
fn handle_and_slug(rng: &mut Rng, title: &str, index: usize) -> (String, String) {
    let digits = index.to_string();
    let room = 15usize.saturating_sub(digits.len()).max(4);
    let letters: String = ascii_fold(title)
        .chars()
        .filter(char::is_ascii_alphabetic)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let letters = letters
        .strip_prefix("the")
        .filter(|rest| rest.len() >= 4)
        .unwrap_or(&letters);
    let mut base: String = letters.chars().take(room).collect();
    if base.len() < 4 {
        base = rng.pick(names::HANDLE_WORDS).to_string();
        base.push_str("pod");
    }
    let title_slug = slugify(title);
    let stem = if title_slug.len() >= 3 {
        title_slug
    } else {
        base.clone()
    };
    (format!("{base}{digits}"), format!("{stem}-{digits}"))
}

/// The slug without its index suffix (how directories spell the show).
fn slug_stem(slug: &str) -> String {
    slug.rsplit_once('-')
        .map_or(slug, |(stem, _)| stem)
        .to_string()
}

fn handle_base(handle: &str) -> String {
    handle
        .trim_end_matches(|c: char| c.is_ascii_digit())
        .to_string()
}

fn title_case_word(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

fn show_description(rng: &mut Rng, title: &str, theme: &Theme, hosts: &[String]) -> String {
    let topics = rng.sample_indices(theme.topics.len(), 3);
    let [a, b, c] = [topics[0], topics[1], topics[2]].map(|i| theme.topics[i]);
    format!(
        "{title} is a show about {name}: {a}, {b} and {c}. Hosted by {hosts}, every episode \
         brings honest conversations, practical advice and stories from people who live it.",
        name = theme.name,
        hosts = hosts.join(" and ")
    )
}

impl Show {
    /// A topic the show talks about: one of its theme's, now and then (`spill` of the
    /// time) one of its category's other topics, as real shows wander.
    pub fn topic(&self, rng: &mut Rng, spill: f64) -> &'static str {
        if rng.chance(spill) {
            rng.pick::<&'static str>(self.category.topics)
        } else {
            rng.pick::<&'static str>(self.theme.topics)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn context() -> Context {
        Context::new(42, "http://127.0.0.1:8900", 0.1)
    }

    #[test]
    fn handles_fit_the_strictest_platform_rule() {
        let context = context();
        for index in [0, 7, 12_345, 99_999] {
            let show = Show::generate(&context, index);
            assert!(
                show.handle.len() >= 5 && show.handle.len() <= 15,
                "{}",
                show.handle
            );
            assert!(show.handle.chars().all(|c| c.is_ascii_alphanumeric()));
            assert!(show.handle.starts_with(|c: char| c.is_ascii_lowercase()));
            assert!(show.slug.ends_with(&format!("-{index}")));
        }
    }

    #[test]
    fn publish_window_ends_before_the_reference_date() {
        let context = context();
        for index in 0..200 {
            let show = Show::generate(&context, index);
            assert!(show.last_published <= context.reference);
            assert!(show.first_published <= show.last_published);
            assert!((1..=3000).contains(&show.episode_count));
            if show.cadence == Cadence::Stale {
                assert!(context.reference - show.last_published > Duration::days(364));
            }
        }
    }

    #[test]
    fn a_show_is_about_one_theme_its_title_description_and_subcategory_agree_on() {
        let context = context();
        for index in 0..300 {
            let show = Show::generate(&context, index);
            assert_eq!(show.theme.category, show.category.name);
            assert_eq!(show.subcategory, show.theme.subcategory);
            assert!(
                show.theme
                    .title_words
                    .iter()
                    .any(|word| show.title.contains(word)),
                "{} is not named from {:?}",
                show.title,
                show.theme.name
            );
            let about = show
                .description
                .split_once(". Hosted by")
                .map_or(show.description.as_str(), |(about, _)| about);
            assert!(
                about.contains(&format!("a show about {}:", show.theme.name)),
                "{about}"
            );
            let topics = about.rsplit_once(':').map_or("", |(_, topics)| topics);
            let named = show
                .theme
                .topics
                .iter()
                .filter(|topic| topics.contains(*topic))
                .count();
            assert!(named >= 3, "{about}");
        }
    }

    #[test]
    fn same_index_same_show() {
        let context = context();
        let first = Show::generate(&context, 3);
        let second = Show::generate(&context, 3);
        assert_eq!(first.title, second.title);
        assert_eq!(first.emails, second.emails);
    }
}
