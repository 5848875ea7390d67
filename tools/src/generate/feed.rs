//! The RSS 2.0 document of a show, with the iTunes and Podcasting 2.0 namespaces,
//! items newest first, in UTF-8 or (for a few shows) ISO-8859-1.

use std::fmt::Write;

use super::Context;
use super::episode::Episode;
use super::show::{DurationStyle, Show};
use super::text::{encode_latin1, escape, escape_into};

/// What writing a feed learned about its episodes.
#[derive(Debug, Default)]
pub struct FeedStats {
    pub transcripts: Vec<Episode>,
    pub broken_dates: u32,
    pub undefined_entities: u32,
}

/// The feed's bytes, and its episodes that have transcripts.
pub fn render(context: &Context, show: &Show) -> (Vec<u8>, FeedStats) {
    let mut out = String::with_capacity(2_048 + show.episode_count as usize * 1_400);
    let mut stats = FeedStats::default();
    write_channel_head(&mut out, context, show);
    for number in (1..=show.episode_count).rev() {
        let episode = Episode::generate(context, show, number);
        let raw_entity =
            show.breakage.undefined_entity && (number == show.episode_count || number % 7 == 0);
        write_item(&mut out, context, show, &episode, raw_entity);
        stats.broken_dates += u32::from(episode.broken_date);
        stats.undefined_entities += u32::from(raw_entity);
        if episode.has_transcript {
            stats.transcripts.push(episode);
        }
    }
    out.push_str("</channel>\n</rss>\n");
    let bytes = if show.breakage.latin1 {
        encode_latin1(&out)
    } else {
        out.into_bytes()
    };
    (bytes, stats)
}

fn write_channel_head(out: &mut String, context: &Context, show: &Show) {
    let encoding = if show.breakage.latin1 {
        "ISO-8859-1"
    } else {
        "UTF-8"
    };
    let site = show.site_url(context);
    let feed_url = Show::feed_url(context, show.index);
    let image = show.image_url(context);
    let title = escape(&show.title);
    let _ = write!(
        out,
        "<?xml version=\"1.0\" encoding=\"{encoding}\"?>\n\
         <rss version=\"2.0\" xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\" \
         xmlns:podcast=\"https://podcastindex.org/namespace/1.0\" \
         xmlns:atom=\"http://www.w3.org/2005/Atom\" \
         xmlns:content=\"http://purl.org/rss/1.0/modules/content/\">\n<channel>\n\
         <title>{title}</title>\n<link>{site}</link>\n\
         <atom:link href=\"{feed_url}\" rel=\"self\" type=\"application/rss+xml\"/>\n\
         <description>{description}</description>\n<language>{language}</language>\n\
         <copyright>\u{a9} {year} {author}</copyright>\n\
         <lastBuildDate>{built}</lastBuildDate>\n<generator>{generator}</generator>\n\
         <itunes:author>{author}</itunes:author>\n<itunes:summary>{description}</itunes:summary>\n",
        description = escape(&show.description),
        language = show.language_tag,
        year = show.last_published.format("%Y"),
        author = escape(&show.author),
        built = show.last_published.format("%a, %d %b %Y %H:%M:%S +0000"),
        generator = escape(show.generator),
    );
    if let Some((owner_email, _)) = show.emails.first() {
        let _ = writeln!(
            out,
            "<itunes:owner><itunes:name>{}</itunes:name><itunes:email>{owner_email}</itunes:email></itunes:owner>",
            escape(&show.author)
        );
    }
    let _ = write!(
        out,
        "<itunes:image href=\"{image}\"/>\n<image><url>{image}</url><title>{title}</title><link>{site}</link></image>\n"
    );
    write_category(out, show.category.name, show.subcategory);
    if let Some(second) = show.second_category {
        write_category(out, second.name, None);
    }
    let explicit = match (show.explicit_legacy, show.explicit) {
        (false, true) => "true",
        (false, false) => "false",
        (true, true) => "yes",
        (true, false) => "clean",
    };
    let _ = write!(
        out,
        "<itunes:explicit>{explicit}</itunes:explicit>\n<itunes:type>{}</itunes:type>\n",
        if show.serial { "serial" } else { "episodic" }
    );
    if show.blocked {
        out.push_str("<itunes:block>Yes</itunes:block>\n");
    }
    if let Some(guid) = show.podcast_guid {
        let _ = writeln!(out, "<podcast:guid>{guid}</podcast:guid>");
    }
    if let (Some(locked), Some((owner, _))) = (show.locked, show.emails.first()) {
        let _ = writeln!(
            out,
            "<podcast:locked owner=\"{owner}\">{}</podcast:locked>",
            if locked { "yes" } else { "no" }
        );
    }
    for host in &show.hosts {
        let _ = writeln!(
            out,
            "<podcast:person role=\"host\" href=\"{site}about.html\">{}</podcast:person>",
            escape(host)
        );
    }
    if let Some(url) = &show.funding_url {
        let _ = writeln!(
            out,
            "<podcast:funding url=\"{}\">Support the show</podcast:funding>",
            escape(url)
        );
    }
    if let Some(place) = show.place {
        let _ = writeln!(
            out,
            "<podcast:location geo=\"geo:{},{}\" osm=\"{}\">{}</podcast:location>",
            place.latitude,
            place.longitude,
            place.osm,
            escape(place.name)
        );
    }
    if let Some(address) = &show.value_address {
        let _ = write!(
            out,
            "<podcast:value type=\"lightning\" method=\"keysend\" suggested=\"0.00000005000\">\n\
             <podcast:valueRecipient name=\"{}\" type=\"node\" address=\"{address}\" split=\"95\"/>\n\
             <podcast:valueRecipient name=\"Podcastindex.org\" type=\"node\" \
             address=\"03ae9f91a0cb8ff43840e3c322c4c61f019d8c1c3cea15a25cfc425ac605e61a4a\" split=\"5\"/>\n\
             </podcast:value>\n",
            escape(&show.author)
        );
    }
}

fn write_category(out: &mut String, name: &str, subcategory: Option<&str>) {
    match subcategory {
        Some(sub) => {
            let _ = writeln!(
                out,
                "<itunes:category text=\"{}\"><itunes:category text=\"{}\"/></itunes:category>",
                escape(name),
                escape(sub)
            );
        }
        None => {
            let _ = writeln!(out, "<itunes:category text=\"{}\"/>", escape(name));
        }
    }
}

fn write_item(
    out: &mut String,
    context: &Context,
    show: &Show,
    episode: &Episode,
    raw_entity: bool,
) {
    let site = show.site_url(context);
    out.push_str("<item>\n<title>");
    escape_into(out, &episode.title);
    let _ = write!(
        out,
        "</title>\n<link>{site}#episode-{}</link>\n<guid isPermaLink=\"{}\">{}</guid>\n<pubDate>{}</pubDate>\n",
        episode.number,
        episode.guid_is_permalink,
        escape(&episode.guid),
        episode.pub_date_text
    );
    let html = description_html(show, episode);
    out.push_str("<description>");
    if raw_entity {
        // Real feeds do this: HTML escaped once, but an HTML-only entity left raw.
        escape_into(out, &html);
        out.push_str(" Show notes&nbsp;and links on our website.");
    } else if show.cdata_descriptions {
        out.push_str("<![CDATA[");
        out.push_str(&html.replace("]]>", "]]&gt;"));
        out.push_str("]]>");
    } else {
        escape_into(out, &html);
    }
    out.push_str("</description>\n");
    let _ = write!(
        out,
        "<enclosure url=\"{}\" length=\"{}\" type=\"audio/wav\"/>\n<itunes:duration>{}</itunes:duration>\n",
        episode.enclosure_url(context, show),
        episode.enclosure_length(),
        duration_text(show.duration_style, episode.duration_seconds)
    );
    if show.serial || show.index % 10 < 7 {
        let _ = writeln!(out, "<itunes:episode>{}</itunes:episode>", episode.number);
    }
    if let Some(season) = episode.season {
        let _ = writeln!(out, "<itunes:season>{season}</itunes:season>");
    }
    let _ = writeln!(
        out,
        "<itunes:episodeType>{}</itunes:episodeType>",
        episode.episode_type
    );
    if let Some(guest) = &episode.guest {
        let _ = writeln!(
            out,
            "<podcast:person role=\"guest\">{}</podcast:person>",
            escape(guest)
        );
    }
    if let Some(path) = episode.transcript_path(show) {
        let _ = writeln!(
            out,
            "<podcast:transcript url=\"{}/{path}\" type=\"{}\" language=\"{}\"/>",
            context.base_url,
            show.transcript_format.mime(),
            show.language.code
        );
    }
    out.push_str("</item>\n");
}

/// The episode's show notes as HTML.
pub fn description_html(show: &Show, episode: &Episode) -> String {
    let mut html = String::with_capacity(600);
    html.push_str("<p>");
    escape_into(&mut html, &episode.summary);
    html.push_str("</p>\n<p>In this episode:</p>\n<ul>");
    for topic in &episode.topics {
        html.push_str("<li>");
        escape_into(&mut html, topic);
        html.push_str("</li>");
    }
    html.push_str("</ul>\n");
    if let Some(guest) = &episode.guest {
        html.push_str("<p>Guest: <strong>");
        escape_into(&mut html, guest);
        html.push_str("</strong></p>\n");
    }
    if let Some(sponsor) = episode.sponsor {
        let _ = writeln!(
            html,
            "<p>This episode is sponsored by <a href=\"https://{}/{}\">{}</a>: {}.</p>",
            sponsor.domain,
            show.handle,
            escape(sponsor.name),
            sponsor.pitch
        );
    }
    if let Some((kind, url)) = show.socials.first() {
        let _ = write!(
            html,
            "<p>Follow us on <a href=\"{}\">{kind}</a>.</p>",
            escape(url)
        );
    }
    html
}

/// `itunes:duration` in the show's style.
pub fn duration_text(style: DurationStyle, seconds: u32) -> String {
    match style {
        DurationStyle::Seconds => seconds.to_string(),
        DurationStyle::Clock => format!(
            "{:02}:{:02}:{:02}",
            seconds / 3600,
            seconds / 60 % 60,
            seconds % 60
        ),
        DurationStyle::MinutesSeconds => format!("{}:{:02}", seconds / 60, seconds % 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duration_styles() {
        assert_eq!(duration_text(DurationStyle::Seconds, 3725), "3725");
        assert_eq!(duration_text(DurationStyle::Clock, 3725), "01:02:05");
        assert_eq!(duration_text(DurationStyle::MinutesSeconds, 3725), "62:05");
    }

    #[test]
    fn feed_lists_every_episode_once() {
        let context = Context::new(5, "http://127.0.0.1:8900", 0.2);
        let show = Show::generate(&context, 11);
        let (bytes, stats) = render(&context, &show);
        let text = String::from_utf8_lossy(&bytes);
        assert_eq!(text.matches("<item>").count() as u32, show.episode_count);
        assert_eq!(
            text.matches("<podcast:transcript ").count(),
            stats.transcripts.len()
        );
        assert!(text.ends_with("</rss>\n"));
    }
}
