//! Export rows: the column groups of SPEC.md §7 over catalog podcasts, rendered as CSV
//! (RFC 4180) or JSON. Values the catalog does not hold are empty, never invented.

use podlens_model::Plan;
use podlens_model::catalog::PodcastRecord;
use podlens_model::enums::ExportColumn;
use serde_json::{Value, json};

use super::projects::ListedPodcastRow;

/// One exported row: `(field, value)` in column order.
pub type ExportRow = Vec<(&'static str, Value)>;

/// The fields a project export adds in front of the podcast's columns.
pub const EXPORT_LISTED_COLUMNS: [&str; 5] =
    ["listedPodcastId", "status", "priority", "labels", "addedAt"];

/// The most rows one export of `plan` may hold (`None`: no export at all).
pub fn max_export_entries(plan: Plan) -> Option<u32> {
    plan.limits()
        .max_entries_per_export
        .filter(|&entries| entries > 0)
}

fn text(value: Option<&str>) -> Value {
    value.map_or(Value::Null, |text| Value::String(text.to_owned()))
}

fn timestamp(value: Option<chrono::DateTime<chrono::Utc>>) -> Value {
    value.map_or(Value::Null, |at| Value::String(at.to_rfc3339()))
}

fn group_fields(column: ExportColumn, podcast: &PodcastRecord, plan: Plan) -> ExportRow {
    match column {
        ExportColumn::BasicInfo => vec![
            ("podcastId", json!(podcast.podcast_id.to_string())),
            ("title", json!(podcast.podcast_rss_title)),
            ("slug", json!(podcast.podcast_slug)),
            ("author", text(podcast.podcast_rss_author.as_deref())),
            ("language", text(podcast.rss_language.as_deref())),
            ("genres", json!(podcast.podcast_podlens_genres)),
            ("imageUrl", text(podcast.podcast_image_url.as_deref())),
            ("rssFeedUrl", json!(podcast.podcast_rss_feed_url)),
            ("episodeCount", json!(podcast.total_episodes)),
            (
                "lastEpisodePublishedAt",
                timestamp(podcast.last_episode_date),
            ),
        ],
        ExportColumn::Description => vec![(
            "description",
            text(podcast.podcast_rss_description_no_html.as_deref()),
        )],
        ExportColumn::Location => vec![("location", text(podcast.podcast_location.as_deref()))],
        ExportColumn::Website => vec![("websiteUrl", text(podcast.podcast_website_url.as_deref()))],
        ExportColumn::ContactDetails => {
            let email = podcast
                .podcast_owner_email
                .as_deref()
                .filter(|_| plan.may_export_contacts());
            vec![
                ("primaryContactEmail", text(email)),
                ("ownerName", text(podcast.podcast_owner_name.as_deref())),
            ]
        }
        ExportColumn::Socials => vec![("socialMediaLinks", json!([]))],
        ExportColumn::AppleReviews => vec![
            ("appleId", text(podcast.apple_id.as_deref())),
            ("appleRating", Value::Null),
            ("appleRatingsCount", Value::Null),
        ],
        ExportColumn::SpotifyReviews => vec![
            ("spotifyId", text(podcast.spotify_id.as_deref())),
            ("spotifyRating", Value::Null),
            ("spotifyRatingsCount", Value::Null),
        ],
        ExportColumn::CastboxListens => vec![
            ("castboxPlays", Value::Null),
            ("castboxSubscribers", Value::Null),
        ],
        ExportColumn::AuthorityScore => vec![("authorityScore", Value::Null)],
    }
}

/// The row of one podcast: the fields of each chosen column group, in the order the
/// groups were asked for, after the listed podcast's fields when there is one.
pub fn export_row(
    podcast: &PodcastRecord,
    listed: Option<&ListedPodcastRow>,
    columns: &[ExportColumn],
    plan: Plan,
) -> ExportRow {
    let mut row = Vec::new();
    if let Some(listed) = listed {
        let labels: Vec<&str> = listed.labels.iter().map(|label| label.as_str()).collect();
        row.extend([
            ("listedPodcastId", json!(listed.listed_podcast_id)),
            ("status", json!(listed.status.as_str())),
            (
                "priority",
                text(listed.priority.map(|priority| priority.as_str())),
            ),
            ("labels", json!(labels)),
            ("addedAt", json!(listed.added_at.to_rfc3339())),
        ]);
    }
    for &column in columns {
        row.extend(group_fields(column, podcast, plan));
    }
    row
}

fn csv_cell(value: &Value) -> String {
    let text = match value {
        Value::Null => String::new(),
        Value::String(text) => neutralize_formula(text),
        Value::Array(items) => items
            .iter()
            .map(|item| match item {
                Value::String(text) => text.clone(),
                other => other.to_string(),
            })
            .collect::<Vec<_>>()
            .join("; "),
        other => other.to_string(),
    };
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

/// Text a spreadsheet would run as a formula gets a leading apostrophe.
fn neutralize_formula(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@']) {
        format!("'{text}")
    } else {
        text.to_owned()
    }
}

/// CSV with a header line; `header` names the columns when there are no rows.
pub fn render_csv(rows: &[ExportRow], header: &[&str]) -> String {
    let names: Vec<&str> = match rows.first() {
        Some(first) => first.iter().map(|(name, _)| *name).collect(),
        None => header.to_vec(),
    };
    let mut out = names.join(",");
    out.push_str("\r\n");
    for row in rows {
        let cells: Vec<String> = row.iter().map(|(_, value)| csv_cell(value)).collect();
        out.push_str(&cells.join(","));
        out.push_str("\r\n");
    }
    out
}

/// A JSON array of objects whose keys keep the column order.
pub fn render_json(rows: &[ExportRow]) -> String {
    let objects: Vec<String> = rows
        .iter()
        .map(|row| {
            let fields: Vec<String> = row
                .iter()
                .map(|(name, value)| format!("{}:{}", Value::String((*name).to_owned()), value))
                .collect();
            format!("{{{}}}", fields.join(","))
        })
        .collect();
    format!("[{}]", objects.join(","))
}

/// The header of an export without rows: the fields the groups would produce.
pub fn header_of(columns: &[ExportColumn], with_listed: bool, plan: Plan) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    if with_listed {
        names.extend(EXPORT_LISTED_COLUMNS);
    }
    let empty = PodcastRecord::default();
    for &column in columns {
        names.extend(
            group_fields(column, &empty, plan)
                .into_iter()
                .map(|(name, _)| name),
        );
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn podcast() -> PodcastRecord {
        PodcastRecord {
            podcast_rss_title: "Tea, \"Talk\" & More".into(),
            podcast_slug: "tea-talk".into(),
            podcast_owner_email: Some("host@example.org".into()),
            podcast_podlens_genres: vec!["food".into(), "culture".into()],
            podcast_rss_author: Some("=HYPERLINK(\"x\")".into()),
            ..PodcastRecord::default()
        }
    }

    #[test]
    fn csv_quotes_commas_quotes_and_formulas() {
        let row = export_row(&podcast(), None, &[ExportColumn::BasicInfo], Plan::Business);
        let csv = render_csv(&[row], &[]);
        let lines: Vec<&str> = csv.split("\r\n").collect();
        assert!(lines[0].starts_with("podcastId,title,slug,author,"));
        assert!(lines[1].contains("\"Tea, \"\"Talk\"\" & More\""));
        assert!(lines[1].contains("\"'=HYPERLINK(\"\"x\"\")\""));
        assert!(lines[1].contains(",food; culture,"));
    }

    #[test]
    fn json_keeps_column_order_and_parses_back() {
        let columns = [ExportColumn::Website, ExportColumn::BasicInfo];
        let row = export_row(&podcast(), None, &columns, Plan::Business);
        let parsed: Value = serde_json::from_str(&render_json(&[row])).unwrap();
        assert_eq!(parsed[0]["title"], "Tea, \"Talk\" & More");
        let text = render_json(&[export_row(&podcast(), None, &columns, Plan::Business)]);
        assert!(text.find("websiteUrl").unwrap() < text.find("podcastId").unwrap());
    }

    #[test]
    fn contact_emails_follow_the_plan() {
        let row = |plan| export_row(&podcast(), None, &[ExportColumn::ContactDetails], plan);
        assert_eq!(row(Plan::Business)[0].1, json!("host@example.org"));
        assert_eq!(row(Plan::Individual)[0].1, Value::Null);
    }

    #[test]
    fn entries_per_export_follow_the_limits_table() {
        assert_eq!(max_export_entries(Plan::Individual), Some(100));
        assert_eq!(max_export_entries(Plan::Admin), Some(5000));
        assert_eq!(max_export_entries(Plan::Free), None);
    }

    #[test]
    fn an_empty_export_still_has_its_header() {
        let header = header_of(&[ExportColumn::Website], true, Plan::Business);
        assert_eq!(
            render_csv(&[], &header),
            "listedPodcastId,status,priority,labels,addedAt,websiteUrl\r\n"
        );
    }
}
