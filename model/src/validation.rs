//! The "other" validation rules of SPEC.md §5 (projects, guest form, strategies,
//! exports, guest prep, listings, uploads, prompts and templates, reasons, charts,
//! categories, lookups). Every failure is a [`ValidationError`] whose text is the
//! specification's exact message where it gives one.

use crate::enums::{
    ChartCategory, ExportColumn, ExportFormat, ProjectType, TranscriptFormat, UsageReason,
};
use crate::social::SocialUrlError;

/// Project names are 6–32 characters.
pub const PROJECT_NAME_CHARS: (usize, usize) = (6, 32);
/// Exports carry 1–1000 rows.
pub const EXPORT_LIMIT: (u32, u32) = (1, 1000);
/// A podcast's episode listing returns at most 100 episodes.
pub const MAX_EPISODES_LIMIT: u32 = 100;
/// Sample sizes are 1–10.
pub const SAMPLE_SIZE: (u32, u32) = (1, 10);
/// At most 5 locations.
pub const MAX_LOCATIONS: usize = 5;
/// Uploaded file types, by lowercase extension.
pub const UPLOAD_EXTENSIONS: &[&str] = &["jpg", "jpeg", "png", "pdf", "docx", "csv", "txt"];
/// 5 MB per uploaded file.
pub const MAX_UPLOAD_BYTES: u64 = 5_242_880;
/// At most 5 files per upload.
pub const MAX_UPLOAD_FILES: usize = 5;
/// Custom prompt and template names are 3–100 characters.
pub const PROMPT_NAME_CHARS: (usize, usize) = (3, 100);

/// A broken rule; `Display` is the message the API returns.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ValidationError {
    #[error("Project name must be at least 6 characters")]
    ProjectNameTooShort,
    #[error("Project name must be at most 32 characters")]
    ProjectNameTooLong,
    #[error("Invalid project type \"{0}\"")]
    UnknownProjectType(String),
    #[error("At least one field must be provided to update a project")]
    EmptyProjectUpdate,
    #[error("{} is required. The more detailed the better so our AI will work better.", .0.label())]
    GuestFieldRequired(GuestFormField),
    #[error("{} must be a valid http or https URL", .0.label())]
    InvalidOptionalUrl(GuestFormField),
    #[error("Invalid field format. Expected format is user_file:{{number}}.")]
    InvalidUserFileField,
    #[error("{} must be at most {} characters", .0.label(), .0.max_chars())]
    StrategyTextTooLong(StrategyTextField),
    #[error("Export limit must be between 1 and 1000")]
    ExportLimitOutOfRange,
    #[error("At least one export column is required")]
    NoExportColumns,
    #[error("Invalid export column \"{0}\"")]
    UnknownExportColumn(String),
    #[error("Export format must be csv or json")]
    UnknownExportFormat(String),
    #[error("Podcast slug must contain only lowercase letters, digits and hyphens")]
    InvalidPodcastSlug,
    #[error("Invalid email address")]
    InvalidEmail,
    #[error("Limit must be at most 100")]
    EpisodesLimitTooHigh,
    #[error("Sample size must be between 1 and 10")]
    SampleSizeOutOfRange,
    #[error("Maximum of 5 locations allowed")]
    TooManyLocations,
    #[error("Transcript format must be vtt or txt")]
    UnknownTranscriptFormat(String),
    #[error("File type not allowed; allowed types are jpg, jpeg, png, pdf, docx, csv and txt")]
    UnsupportedUploadType(String),
    #[error("File is too large; the maximum is 5 MB (5242880 bytes)")]
    UploadTooLarge,
    #[error("File {0} does not hold what its extension says")]
    UploadContentMismatch(String),
    #[error("Too many files; at most 5 files can be uploaded")]
    TooManyUploads,
    #[error("Custom prompt name must be between 3 and 100 characters")]
    CustomPromptNameLength,
    #[error("Template name must be between 3 and 100 characters")]
    TemplateNameLength,
    #[error("Invalid reason \"{0}\"")]
    UnknownReason(String),
    #[error("Other reason must be specified when 'other' is selected.")]
    OtherReasonRequired,
    #[error("A chart response must have exactly one country")]
    ChartCountryCount,
    #[error("A chart response must have exactly one category")]
    ChartCategoryCount,
    #[error("A chart response must have at least one ranking")]
    ChartWithoutRankings,
    #[error("No valid categories found")]
    NoValidCategories,
    #[error("Unexpected type")]
    UnexpectedType,
    #[error("Only one of appleId, slug, spotifyId, or podlensId can be provided")]
    LookupMoreThanOne,
    #[error("One of appleId, slug, spotifyId, or podlensId is required")]
    LookupMissing,
    #[error(transparent)]
    SocialUrl(#[from] SocialUrlError),
}

type Checked<T> = Result<T, ValidationError>;

fn char_count(text: &str) -> usize {
    text.chars().count()
}

// ---------------------------------------------------------------- projects

/// Checks a project name (6–32 characters, counted after trimming) and returns it trimmed.
pub fn validate_project_name(name: &str) -> Checked<String> {
    let trimmed = name.trim();
    let chars = char_count(trimmed);
    if chars < PROJECT_NAME_CHARS.0 {
        return Err(ValidationError::ProjectNameTooShort);
    }
    if chars > PROJECT_NAME_CHARS.1 {
        return Err(ValidationError::ProjectNameTooLong);
    }
    Ok(trimmed.to_owned())
}

/// Parses project types; each must be one of the list of SPEC.md §3.
pub fn parse_project_types<S: AsRef<str>>(values: &[S]) -> Checked<Vec<ProjectType>> {
    values
        .iter()
        .map(|value| {
            let value = value.as_ref();
            ProjectType::parse(value)
                .ok_or_else(|| ValidationError::UnknownProjectType(value.to_owned()))
        })
        .collect()
}

/// A project update (`PATCH /api/v1/projects/{id}`) must change at least one field:
/// pass whether each optional field was present.
pub fn validate_project_update_fields(present: &[bool]) -> Checked<()> {
    if present.iter().any(|&is_present| is_present) {
        Ok(())
    } else {
        Err(ValidationError::EmptyProjectUpdate)
    }
}

// ---------------------------------------------------------------- guest form

/// The fields of the guest onboarding form that have rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GuestFormField {
    ShortBio,
    Goals,
    Expertise,
    TopicsToDiscuss,
    LinkedIn,
    WebsiteUrl,
}

impl GuestFormField {
    /// The four required fields, in the form's order.
    pub const REQUIRED: [GuestFormField; 4] = [
        GuestFormField::ShortBio,
        GuestFormField::Goals,
        GuestFormField::Expertise,
        GuestFormField::TopicsToDiscuss,
    ];

    /// The label used in messages.
    pub const fn label(self) -> &'static str {
        match self {
            GuestFormField::ShortBio => "Short bio",
            GuestFormField::Goals => "Goals",
            GuestFormField::Expertise => "Expertise",
            GuestFormField::TopicsToDiscuss => "Topics to discuss",
            GuestFormField::LinkedIn => "LinkedIn",
            GuestFormField::WebsiteUrl => "Website URL",
        }
    }
}

/// A required guest-form field: missing or blank is an error; the value comes back trimmed.
pub fn require_guest_field(field: GuestFormField, value: Option<&str>) -> Checked<String> {
    match value.map(str::trim) {
        Some(text) if !text.is_empty() => Ok(text.to_owned()),
        _ => Err(ValidationError::GuestFieldRequired(field)),
    }
}

/// An optional URL field: absent or empty (after trimming) is `None`; anything else
/// must be an absolute http(s) URL.
pub fn optional_url(field: GuestFormField, value: Option<&str>) -> Checked<Option<String>> {
    let Some(text) = value.map(str::trim).filter(|text| !text.is_empty()) else {
        return Ok(None);
    };
    match url::Url::parse(text) {
        Ok(parsed)
            if matches!(parsed.scheme(), "http" | "https") && parsed.host_str().is_some() =>
        {
            Ok(Some(text.to_owned()))
        }
        _ => Err(ValidationError::InvalidOptionalUrl(field)),
    }
}

/// Parses a guest file upload field name `user_file:{n}` (n a positive integer).
pub fn parse_user_file_field(field: &str) -> Checked<u64> {
    let number = field
        .strip_prefix("user_file:")
        .filter(|digits| !digits.is_empty() && digits.bytes().all(|byte| byte.is_ascii_digit()))
        .and_then(|digits| digits.parse::<u64>().ok())
        .filter(|&number| number > 0);
    number.ok_or(ValidationError::InvalidUserFileField)
}

// ---------------------------------------------------------------- strategies

/// The text fields of a search strategy that have a length limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StrategyTextField {
    ShortTitle,
    LongTitle,
    Description,
    YesNoPrompt,
    Reason,
    AudienceAlignment,
    GeographicalFilters,
    SearchAdvice,
}

impl StrategyTextField {
    /// Every limited field.
    pub const ALL: [StrategyTextField; 8] = [
        StrategyTextField::ShortTitle,
        StrategyTextField::LongTitle,
        StrategyTextField::Description,
        StrategyTextField::YesNoPrompt,
        StrategyTextField::Reason,
        StrategyTextField::AudienceAlignment,
        StrategyTextField::GeographicalFilters,
        StrategyTextField::SearchAdvice,
    ];

    /// The maximum length in characters.
    pub const fn max_chars(self) -> usize {
        match self {
            StrategyTextField::ShortTitle => 100,
            StrategyTextField::LongTitle => 300,
            StrategyTextField::Description => 1000,
            StrategyTextField::YesNoPrompt => 500,
            StrategyTextField::Reason => 300,
            StrategyTextField::AudienceAlignment => 500,
            StrategyTextField::GeographicalFilters => 500,
            StrategyTextField::SearchAdvice => 1000,
        }
    }

    /// The label used in messages.
    pub const fn label(self) -> &'static str {
        match self {
            StrategyTextField::ShortTitle => "Short title",
            StrategyTextField::LongTitle => "Long title",
            StrategyTextField::Description => "Description",
            StrategyTextField::YesNoPrompt => "Yes/no prompt",
            StrategyTextField::Reason => "Reason",
            StrategyTextField::AudienceAlignment => "Audience alignment",
            StrategyTextField::GeographicalFilters => "Geographical filters",
            StrategyTextField::SearchAdvice => "Search advice",
        }
    }
}

/// Checks a strategy text against its limit (characters, not bytes).
pub fn validate_strategy_text(field: StrategyTextField, text: &str) -> Checked<()> {
    if char_count(text) > field.max_chars() {
        return Err(ValidationError::StrategyTextTooLong(field));
    }
    Ok(())
}

// ---------------------------------------------------------------- exports

/// An export row limit: 1–1000.
pub fn validate_export_limit(limit: i64) -> Checked<u32> {
    u32::try_from(limit)
        .ok()
        .filter(|limit| (EXPORT_LIMIT.0..=EXPORT_LIMIT.1).contains(limit))
        .ok_or(ValidationError::ExportLimitOutOfRange)
}

/// Export columns: a non-empty list of known column groups (duplicates dropped).
pub fn parse_export_columns<S: AsRef<str>>(values: &[S]) -> Checked<Vec<ExportColumn>> {
    if values.is_empty() {
        return Err(ValidationError::NoExportColumns);
    }
    let mut columns = Vec::with_capacity(values.len());
    for value in values {
        let value = value.as_ref();
        let column = ExportColumn::parse(value)
            .ok_or_else(|| ValidationError::UnknownExportColumn(value.to_owned()))?;
        if !columns.contains(&column) {
            columns.push(column);
        }
    }
    Ok(columns)
}

/// The export format: `csv` or `json`.
pub fn parse_export_format(value: &str) -> Checked<ExportFormat> {
    ExportFormat::parse(value).ok_or_else(|| ValidationError::UnknownExportFormat(value.to_owned()))
}

// ---------------------------------------------------------------- guest prep

/// A slug: non-empty, lowercase ASCII letters, digits and hyphens.
pub fn is_valid_slug(slug: &str) -> bool {
    !slug.is_empty()
        && slug
            .bytes()
            .all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-')
}

/// A practical email check: one `@`, a dot-atom local part, and a domain of at
/// least two DNS labels with an alphabetic top-level label.
pub fn is_valid_email(email: &str) -> bool {
    let Some((local, domain)) = email.split_once('@') else {
        return false;
    };
    if local.is_empty() || local.len() > 64 || domain.len() > 253 {
        return false;
    }
    let local_ok = local.split('.').all(|atom| {
        !atom.is_empty()
            && atom
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+/=?^_`{|}~-".contains(c))
    });
    let labels: Vec<&str> = domain.split('.').collect();
    let labels_ok = labels.len() >= 2
        && labels.iter().all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label
                    .bytes()
                    .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-')
        });
    let top_ok = labels
        .last()
        .is_some_and(|top| top.len() >= 2 && top.bytes().all(|byte| byte.is_ascii_alphabetic()));
    local_ok && labels_ok && top_ok
}

/// The guest prep email request: a podcast slug and the recipient's email.
pub fn validate_guest_prep_email_request(podcast_slug: &str, email: &str) -> Checked<()> {
    if !is_valid_slug(podcast_slug) {
        return Err(ValidationError::InvalidPodcastSlug);
    }
    if !is_valid_email(email.trim()) {
        return Err(ValidationError::InvalidEmail);
    }
    Ok(())
}

// ---------------------------------------------------------------- listings

/// The `limit` of a podcast's episode listing: at most 100 (negative is rejected too).
pub fn validate_episodes_limit(limit: i64) -> Checked<u32> {
    u32::try_from(limit)
        .ok()
        .filter(|&limit| limit <= MAX_EPISODES_LIMIT)
        .ok_or(ValidationError::EpisodesLimitTooHigh)
}

/// A sample size: 1–10.
pub fn validate_sample_size(size: i64) -> Checked<u32> {
    u32::try_from(size)
        .ok()
        .filter(|size| (SAMPLE_SIZE.0..=SAMPLE_SIZE.1).contains(size))
        .ok_or(ValidationError::SampleSizeOutOfRange)
}

/// At most 5 locations.
pub fn validate_location_count(count: usize) -> Checked<()> {
    if count > MAX_LOCATIONS {
        return Err(ValidationError::TooManyLocations);
    }
    Ok(())
}

/// The transcript download format: `vtt` or `txt`, `txt` when absent.
pub fn parse_transcript_format(value: Option<&str>) -> Checked<TranscriptFormat> {
    match value {
        None => Ok(TranscriptFormat::default()),
        Some("txt") => Ok(TranscriptFormat::Txt),
        Some("vtt") => Ok(TranscriptFormat::Vtt),
        Some(other) => Err(ValidationError::UnknownTranscriptFormat(other.to_owned())),
    }
}

// ---------------------------------------------------------------- uploads

/// One uploaded file: an allowed extension (any case) and at most 5,242,880 bytes.
pub fn validate_upload(file_name: &str, size_bytes: u64) -> Checked<()> {
    let extension = file_name
        .rsplit_once('.')
        .map(|(_, extension)| extension.to_ascii_lowercase())
        .unwrap_or_default();
    if !UPLOAD_EXTENSIONS.contains(&extension.as_str()) {
        return Err(ValidationError::UnsupportedUploadType(file_name.to_owned()));
    }
    if size_bytes > MAX_UPLOAD_BYTES {
        return Err(ValidationError::UploadTooLarge);
    }
    Ok(())
}

/// An uploaded file's bytes match its extension, judged by content (magic numbers):
/// JPEG, PNG, PDF and DOCX (an Office Open XML word document) signatures; csv and txt
/// must be text (no NUL byte, no binary signature). A renamed executable or archive
/// is refused whatever its name says.
pub fn validate_upload_content(file_name: &str, bytes: &[u8]) -> Checked<()> {
    let extension = file_name
        .rsplit_once('.')
        .map(|(_, extension)| extension.to_ascii_lowercase())
        .unwrap_or_default();
    let matches = match extension.as_str() {
        "jpg" | "jpeg" => infer::image::is_jpeg(bytes),
        "png" => infer::image::is_png(bytes),
        "pdf" => infer::archive::is_pdf(bytes),
        "docx" => infer::doc::is_docx(bytes),
        "csv" | "txt" => is_text(bytes),
        _ => false,
    };
    if matches {
        Ok(())
    } else {
        Err(ValidationError::UploadContentMismatch(file_name.to_owned()))
    }
}

fn is_text(bytes: &[u8]) -> bool {
    !bytes.contains(&0)
        && infer::get(bytes).is_none_or(|kind| kind.matcher_type() == infer::MatcherType::Text)
}

/// At most 5 files in one upload.
pub fn validate_upload_count(count: usize) -> Checked<()> {
    if count > MAX_UPLOAD_FILES {
        return Err(ValidationError::TooManyUploads);
    }
    Ok(())
}

// ---------------------------------------------------------------- prompts and templates

fn name_in_range(name: &str) -> Option<String> {
    let trimmed = name.trim();
    (PROMPT_NAME_CHARS.0..=PROMPT_NAME_CHARS.1)
        .contains(&char_count(trimmed))
        .then(|| trimmed.to_owned())
}

/// A custom prompt name: 3–100 characters after trimming.
pub fn validate_custom_prompt_name(name: &str) -> Checked<String> {
    name_in_range(name).ok_or(ValidationError::CustomPromptNameLength)
}

/// A template name: 3–100 characters after trimming.
pub fn validate_template_name(name: &str) -> Checked<String> {
    name_in_range(name).ok_or(ValidationError::TemplateNameLength)
}

/// A template description: empty or blank becomes `None`.
pub fn normalize_template_description(description: Option<&str>) -> Option<String> {
    description
        .map(str::trim)
        .filter(|text| !text.is_empty())
        .map(str::to_owned)
}

// ---------------------------------------------------------------- reasons

/// Reasons for using the product; choosing `other` requires the other-reason text,
/// which comes back trimmed.
pub fn validate_reasons<S: AsRef<str>>(
    reasons: &[S],
    other_reason: Option<&str>,
) -> Checked<(Vec<UsageReason>, Option<String>)> {
    let mut parsed = Vec::with_capacity(reasons.len());
    for reason in reasons {
        let reason = reason.as_ref();
        let value = UsageReason::parse(reason)
            .ok_or_else(|| ValidationError::UnknownReason(reason.to_owned()))?;
        if !parsed.contains(&value) {
            parsed.push(value);
        }
    }
    let other_text = other_reason.map(str::trim).filter(|text| !text.is_empty());
    if parsed.contains(&UsageReason::Other) && other_text.is_none() {
        return Err(ValidationError::OtherReasonRequired);
    }
    Ok((parsed, other_text.map(str::to_owned)))
}

// ---------------------------------------------------------------- charts

/// A chart response (`{lastUpdated, countries: [{code, name, categories: [{title,
/// rankings: [...]}]}]}`) must hold exactly one country with exactly one category and
/// at least one ranking.
pub fn validate_chart_response(response: &serde_json::Value) -> Checked<()> {
    let countries = response
        .get("countries")
        .and_then(serde_json::Value::as_array)
        .ok_or(ValidationError::ChartCountryCount)?;
    let [country] = countries.as_slice() else {
        return Err(ValidationError::ChartCountryCount);
    };
    let categories = country
        .get("categories")
        .and_then(serde_json::Value::as_array)
        .ok_or(ValidationError::ChartCategoryCount)?;
    let [category] = categories.as_slice() else {
        return Err(ValidationError::ChartCategoryCount);
    };
    let has_rankings = category
        .get("rankings")
        .and_then(serde_json::Value::as_array)
        .is_some_and(|rankings| !rankings.is_empty());
    if !has_rankings {
        return Err(ValidationError::ChartWithoutRankings);
    }
    Ok(())
}

/// Parses a comma-separated category list (case-insensitive, `&` or `and`, hyphens
/// or spaces); unknown entries are skipped, and none valid is an error.
pub fn parse_categories(input: &str) -> Checked<Vec<ChartCategory>> {
    let mut categories = Vec::new();
    for part in input.split(',') {
        let normalized = part
            .trim()
            .to_lowercase()
            .replace(['-', '_'], " ")
            .replace(" and ", " & ");
        let normalized = normalized.split_whitespace().collect::<Vec<_>>().join(" ");
        if let Some(category) = ChartCategory::parse(&normalized)
            && !categories.contains(&category)
        {
            categories.push(category);
        }
    }
    if categories.is_empty() {
        return Err(ValidationError::NoValidCategories);
    }
    Ok(categories)
}

// ---------------------------------------------------------------- lookups

/// The one key a podcast id lookup uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PodcastLookupKey {
    AppleId(String),
    Slug(String),
    SpotifyId(String),
    PodlensId(String),
}

/// Picks the single lookup key; blank values count as absent.
pub fn podcast_lookup_key(
    apple_id: Option<&str>,
    slug: Option<&str>,
    spotify_id: Option<&str>,
    podlens_id: Option<&str>,
) -> Checked<PodcastLookupKey> {
    let present = |value: Option<&str>| {
        value
            .map(str::trim)
            .filter(|text| !text.is_empty())
            .map(str::to_owned)
    };
    let candidates = [
        present(apple_id).map(PodcastLookupKey::AppleId),
        present(slug).map(PodcastLookupKey::Slug),
        present(spotify_id).map(PodcastLookupKey::SpotifyId),
        present(podlens_id).map(PodcastLookupKey::PodlensId),
    ];
    let mut given = candidates.into_iter().flatten();
    let first = given.next().ok_or(ValidationError::LookupMissing)?;
    if given.next().is_some() {
        return Err(ValidationError::LookupMoreThanOne);
    }
    Ok(first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// Every message SPEC.md quotes for these rules, copied verbatim (with
    /// `{product}` written as `podlens`), paired with the error that carries it.
    fn spec_messages() -> Vec<(&'static str, ValidationError)> {
        vec![
            (
                "Project name must be at least 6 characters",
                validate_project_name("abc").unwrap_err(),
            ),
            (
                "Project name must be at most 32 characters",
                validate_project_name(&"x".repeat(33)).unwrap_err(),
            ),
            (
                "Short bio is required. The more detailed the better so our AI will work better.",
                require_guest_field(GuestFormField::ShortBio, None).unwrap_err(),
            ),
            (
                "Invalid field format. Expected format is user_file:{number}.",
                parse_user_file_field("user_file:0").unwrap_err(),
            ),
            (
                "Maximum of 5 locations allowed",
                validate_location_count(6).unwrap_err(),
            ),
            (
                "Other reason must be specified when 'other' is selected.",
                validate_reasons(&["other"], None).unwrap_err(),
            ),
            (
                "No valid categories found",
                parse_categories("nope").unwrap_err(),
            ),
            ("Unexpected type", ValidationError::UnexpectedType),
            (
                "Only one of appleId, slug, spotifyId, or podlensId can be provided",
                podcast_lookup_key(Some("1"), Some("a-slug"), None, None).unwrap_err(),
            ),
        ]
    }

    #[test]
    fn spec_messages_are_exact() {
        for (expected, error) in spec_messages() {
            assert_eq!(error.to_string(), expected);
        }
    }

    #[test]
    fn spec_messages_appear_in_the_spec() {
        let spec_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/spec/SPEC.md");
        let Ok(spec) = std::fs::read_to_string(&spec_path) else {
            eprintln!(
                "{} not found; the literal check above still runs",
                spec_path.display()
            );
            return;
        };
        let spec = spec.replace("{product}", "podlens");
        for (expected, _) in spec_messages() {
            // The spec abbreviates the second project-name message to "'must be at most 32 characters'".
            let quoted = if expected == "Project name must be at most 32 characters" {
                "'must be at most 32 characters'"
            } else {
                expected
            };
            assert!(spec.contains(quoted), "not in SPEC.md: {expected}");
        }
    }

    #[test]
    fn project_name_bounds_count_characters() {
        assert_eq!(validate_project_name("  Launch  ").unwrap(), "Launch");
        assert_eq!(validate_project_name("123456").unwrap(), "123456");
        assert_eq!(
            validate_project_name("12345"),
            Err(ValidationError::ProjectNameTooShort)
        );
        assert!(
            validate_project_name(&"é".repeat(32)).is_ok(),
            "32 two-byte characters fit"
        );
        assert_eq!(
            validate_project_name(&"é".repeat(33)),
            Err(ValidationError::ProjectNameTooLong)
        );
        assert_eq!(
            validate_project_name("      "),
            Err(ValidationError::ProjectNameTooShort)
        );
    }

    #[test]
    fn project_types_come_from_the_list() {
        assert_eq!(
            parse_project_types(&["guest-booking", "api"]).unwrap(),
            vec![ProjectType::GuestBooking, ProjectType::Api]
        );
        let error = parse_project_types(&["guest-booking", "Guest-Booking"]).unwrap_err();
        assert_eq!(error.to_string(), "Invalid project type \"Guest-Booking\"");
        assert!(parse_project_types::<&str>(&[]).unwrap().is_empty());
    }

    #[test]
    fn project_update_needs_a_field() {
        assert!(validate_project_update_fields(&[false, true]).is_ok());
        let error = validate_project_update_fields(&[false, false]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "At least one field must be provided to update a project"
        );
        assert!(validate_project_update_fields(&[]).is_err());
    }

    #[test]
    fn guest_form_required_fields_follow_the_specs_pattern() {
        let expected = [
            "Short bio is required. The more detailed the better so our AI will work better.",
            "Goals is required. The more detailed the better so our AI will work better.",
            "Expertise is required. The more detailed the better so our AI will work better.",
            "Topics to discuss is required. The more detailed the better so our AI will work better.",
        ];
        for (field, message) in GuestFormField::REQUIRED.into_iter().zip(expected) {
            for missing in [None, Some(""), Some("  \n\t ")] {
                assert_eq!(
                    require_guest_field(field, missing).unwrap_err().to_string(),
                    message
                );
            }
            assert_eq!(require_guest_field(field, Some("  text ")).unwrap(), "text");
        }
    }

    #[test]
    fn optional_urls_accept_empty_strings() {
        for field in [GuestFormField::LinkedIn, GuestFormField::WebsiteUrl] {
            assert_eq!(optional_url(field, None), Ok(None));
            assert_eq!(optional_url(field, Some("")), Ok(None));
            assert_eq!(optional_url(field, Some("   ")), Ok(None));
        }
        assert_eq!(
            optional_url(
                GuestFormField::LinkedIn,
                Some("https://www.linkedin.com/in/brucedaisley")
            )
            .unwrap(),
            Some("https://www.linkedin.com/in/brucedaisley".to_owned())
        );
        for bad in [
            "linkedin",
            "ftp://example.com/x",
            "javascript:alert(1)",
            "https://",
        ] {
            let error = optional_url(GuestFormField::WebsiteUrl, Some(bad)).unwrap_err();
            assert_eq!(
                error.to_string(),
                "Website URL must be a valid http or https URL",
                "{bad}"
            );
        }
    }

    #[test]
    fn user_file_field_format() {
        assert_eq!(parse_user_file_field("user_file:1"), Ok(1));
        assert_eq!(parse_user_file_field("user_file:42"), Ok(42));
        assert_eq!(parse_user_file_field("user_file:007"), Ok(7));
        for bad in [
            "user_file:",
            "user_file:0",
            "user_file:-1",
            "user_file:+1",
            "user_file:1.5",
            "user_file: 1",
            "user_file:1a",
            "User_file:1",
            "user_files:1",
            "file:1",
            "user_file:99999999999999999999999",
            "",
        ] {
            assert_eq!(
                parse_user_file_field(bad),
                Err(ValidationError::InvalidUserFileField),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn strategy_text_limits() {
        let limits = [
            (
                StrategyTextField::ShortTitle,
                100,
                "Short title must be at most 100 characters",
            ),
            (
                StrategyTextField::LongTitle,
                300,
                "Long title must be at most 300 characters",
            ),
            (
                StrategyTextField::Description,
                1000,
                "Description must be at most 1000 characters",
            ),
            (
                StrategyTextField::YesNoPrompt,
                500,
                "Yes/no prompt must be at most 500 characters",
            ),
            (
                StrategyTextField::Reason,
                300,
                "Reason must be at most 300 characters",
            ),
            (
                StrategyTextField::AudienceAlignment,
                500,
                "Audience alignment must be at most 500 characters",
            ),
            (
                StrategyTextField::GeographicalFilters,
                500,
                "Geographical filters must be at most 500 characters",
            ),
            (
                StrategyTextField::SearchAdvice,
                1000,
                "Search advice must be at most 1000 characters",
            ),
        ];
        assert_eq!(limits.len(), StrategyTextField::ALL.len());
        for (field, limit, message) in limits {
            assert_eq!(field.max_chars(), limit);
            assert!(validate_strategy_text(field, &"ü".repeat(limit)).is_ok());
            assert_eq!(
                validate_strategy_text(field, &"a".repeat(limit + 1))
                    .unwrap_err()
                    .to_string(),
                message
            );
        }
    }

    #[test]
    fn export_rules() {
        assert_eq!(validate_export_limit(1), Ok(1));
        assert_eq!(validate_export_limit(1000), Ok(1000));
        for bad in [0, -1, 1001, i64::MAX] {
            assert_eq!(
                validate_export_limit(bad).unwrap_err().to_string(),
                "Export limit must be between 1 and 1000"
            );
        }
        assert_eq!(
            parse_export_columns(&["basicInfo", "socials", "basicInfo"]).unwrap(),
            vec![ExportColumn::BasicInfo, ExportColumn::Socials]
        );
        assert_eq!(
            parse_export_columns::<&str>(&[]).unwrap_err().to_string(),
            "At least one export column is required"
        );
        assert_eq!(
            parse_export_columns(&["basicinfo"])
                .unwrap_err()
                .to_string(),
            "Invalid export column \"basicinfo\""
        );
        assert_eq!(parse_export_format("csv"), Ok(ExportFormat::Csv));
        assert_eq!(parse_export_format("json"), Ok(ExportFormat::Json));
        for bad in ["CSV", "xlsx", ""] {
            assert_eq!(
                parse_export_format(bad).unwrap_err().to_string(),
                "Export format must be csv or json"
            );
        }
    }

    #[test]
    fn guest_prep_email_request() {
        assert!(validate_guest_prep_email_request("the-daily-2", "host@example.com").is_ok());
        for slug in ["", "The-Daily", "the_daily", "the daily", "émission"] {
            assert_eq!(
                validate_guest_prep_email_request(slug, "host@example.com")
                    .unwrap_err()
                    .to_string(),
                "Podcast slug must contain only lowercase letters, digits and hyphens",
                "{slug:?}"
            );
        }
        for email in [
            "",
            "host",
            "host@",
            "@example.com",
            "host@example",
            "host@@example.com",
            "a b@example.com",
            "host@exa_mple.com",
            "host@-example.com",
            "host@example.c0m",
            "host..x@example.com",
        ] {
            assert_eq!(
                validate_guest_prep_email_request("show", email)
                    .unwrap_err()
                    .to_string(),
                "Invalid email address",
                "{email:?}"
            );
        }
        for email in [
            "first.last+tag@sub.example.co.uk",
            "o'brien@example.ie",
            "x@a.io",
        ] {
            assert!(is_valid_email(email), "{email}");
        }
    }

    #[test]
    fn listing_limits() {
        assert_eq!(validate_episodes_limit(100), Ok(100));
        assert_eq!(validate_episodes_limit(0), Ok(0));
        assert_eq!(
            validate_episodes_limit(101).unwrap_err().to_string(),
            "Limit must be at most 100"
        );
        assert!(validate_episodes_limit(-5).is_err());
        assert_eq!(validate_sample_size(1), Ok(1));
        assert_eq!(validate_sample_size(10), Ok(10));
        for bad in [0, 11, -3] {
            assert_eq!(
                validate_sample_size(bad).unwrap_err().to_string(),
                "Sample size must be between 1 and 10"
            );
        }
        assert!(validate_location_count(5).is_ok());
        assert!(validate_location_count(0).is_ok());
    }

    #[test]
    fn transcript_format_defaults_to_txt() {
        assert_eq!(parse_transcript_format(None), Ok(TranscriptFormat::Txt));
        assert_eq!(
            parse_transcript_format(Some("txt")),
            Ok(TranscriptFormat::Txt)
        );
        assert_eq!(
            parse_transcript_format(Some("vtt")),
            Ok(TranscriptFormat::Vtt)
        );
        for bad in ["srt", "VTT", "", "sentence-vtt"] {
            assert_eq!(
                parse_transcript_format(Some(bad)).unwrap_err().to_string(),
                "Transcript format must be vtt or txt"
            );
        }
    }

    #[test]
    fn uploads_are_checked_by_content() {
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
        let jpeg = b"\xff\xd8\xff\xe0\0\x10JFIF\0";
        let pdf = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n";
        let elf = b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0";
        let zip = b"PK\x03\x04\x14\0\0\0\x08\0some-archive-entry.bin";
        assert_eq!(validate_upload_content("photo.png", png), Ok(()));
        assert_eq!(validate_upload_content("photo.JPG", jpeg), Ok(()));
        assert_eq!(validate_upload_content("cv.pdf", pdf), Ok(()));
        assert_eq!(
            validate_upload_content("notes.txt", "Größe, 日本 ✓\n".as_bytes()),
            Ok(())
        );
        assert_eq!(
            validate_upload_content("list.csv", b"name,email\nAda,ada@example.com\n"),
            Ok(())
        );
        for (name, bytes) in [
            ("photo.png", &jpeg[..]),
            ("photo.jpg", &png[..]),
            ("cv.pdf", &elf[..]),
            ("notes.txt", &elf[..]),
            ("list.csv", &png[..]),
            ("cv.docx", &zip[..]),
            ("cv.docx", &pdf[..]),
            ("empty.pdf", &b""[..]),
        ] {
            assert_eq!(
                validate_upload_content(name, bytes)
                    .unwrap_err()
                    .to_string(),
                format!("File {name} does not hold what its extension says"),
                "{name}"
            );
        }
    }

    #[test]
    fn uploads() {
        for name in [
            "a.jpg",
            "b.JPEG",
            "c.png",
            "d.pdf",
            "e.docx",
            "f.csv",
            "notes.final.txt",
        ] {
            assert!(validate_upload(name, 10).is_ok(), "{name}");
        }
        assert!(validate_upload("cv.pdf", 5_242_880).is_ok());
        assert_eq!(
            validate_upload("cv.pdf", 5_242_881)
                .unwrap_err()
                .to_string(),
            "File is too large; the maximum is 5 MB (5242880 bytes)"
        );
        for name in ["a.doc", "b.exe", "c", "d.pdf.exe", ".txt.zip", "e.gif"] {
            assert_eq!(
                validate_upload(name, 1).unwrap_err().to_string(),
                "File type not allowed; allowed types are jpg, jpeg, png, pdf, docx, csv and txt",
                "{name}"
            );
        }
        assert!(validate_upload_count(5).is_ok());
        assert_eq!(
            validate_upload_count(6).unwrap_err().to_string(),
            "Too many files; at most 5 files can be uploaded"
        );
    }

    #[test]
    fn prompt_and_template_names() {
        assert_eq!(validate_custom_prompt_name(" abc ").unwrap(), "abc");
        assert!(validate_custom_prompt_name(&"n".repeat(100)).is_ok());
        for bad in ["ab".to_owned(), "  ab  ".to_owned(), "n".repeat(101)] {
            assert_eq!(
                validate_custom_prompt_name(&bad).unwrap_err().to_string(),
                "Custom prompt name must be between 3 and 100 characters"
            );
            assert_eq!(
                validate_template_name(&bad).unwrap_err().to_string(),
                "Template name must be between 3 and 100 characters"
            );
        }
        assert_eq!(normalize_template_description(Some("")), None);
        assert_eq!(normalize_template_description(Some("   ")), None);
        assert_eq!(normalize_template_description(None), None);
        assert_eq!(
            normalize_template_description(Some(" Intro ")),
            Some("Intro".to_owned())
        );
    }

    #[test]
    fn reasons_with_other() {
        let (reasons, other) = validate_reasons(&["guests", "other"], Some(" Research ")).unwrap();
        assert_eq!(reasons, vec![UsageReason::Guests, UsageReason::Other]);
        assert_eq!(other.as_deref(), Some("Research"));
        assert!(validate_reasons(&["leads"], None).is_ok());
        assert_eq!(
            validate_reasons(&["other"], Some("  ")),
            Err(ValidationError::OtherReasonRequired)
        );
        assert_eq!(
            validate_reasons(&["fun"], None).unwrap_err().to_string(),
            "Invalid reason \"fun\""
        );
    }

    #[test]
    fn chart_response_shape() {
        use serde_json::json;
        let ranking = json!({"date": "2025-01-01", "position": 1});
        let good = json!({"lastUpdated": "x", "countries": [{"code": "us", "categories": [{"title": "news", "rankings": [ranking]}]}]});
        assert!(validate_chart_response(&good).is_ok());
        let cases = [
            (json!({}), "A chart response must have exactly one country"),
            (
                json!({"countries": []}),
                "A chart response must have exactly one country",
            ),
            (
                json!({"countries": [{"categories": []}, {"categories": []}]}),
                "A chart response must have exactly one country",
            ),
            (
                json!({"countries": [{"categories": []}]}),
                "A chart response must have exactly one category",
            ),
            (
                json!({"countries": [{"code": "us"}]}),
                "A chart response must have exactly one category",
            ),
            (
                json!({"countries": [{"categories": [{"rankings": [1]}, {"rankings": [1]}]}]}),
                "A chart response must have exactly one category",
            ),
            (
                json!({"countries": [{"categories": [{"rankings": []}]}]}),
                "A chart response must have at least one ranking",
            ),
            (
                json!({"countries": [{"categories": [{"title": "news"}]}]}),
                "A chart response must have at least one ranking",
            ),
        ];
        for (value, message) in cases {
            assert_eq!(
                validate_chart_response(&value).unwrap_err().to_string(),
                message,
                "{value}"
            );
        }
    }

    #[test]
    fn category_parsing() {
        assert_eq!(
            parse_categories("News, true-crime,Health and Fitness, bogus, news").unwrap(),
            vec![
                ChartCategory::News,
                ChartCategory::TrueCrime,
                ChartCategory::HealthAndFitness
            ]
        );
        assert_eq!(
            parse_categories("TV & Film").unwrap(),
            vec![ChartCategory::TvAndFilm]
        );
        for bad in ["", " , ", "podcasts", "truecrime"] {
            assert_eq!(
                parse_categories(bad),
                Err(ValidationError::NoValidCategories),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn lookup_takes_exactly_one_key() {
        assert_eq!(
            podcast_lookup_key(Some("1200361736"), None, Some(" "), None),
            Ok(PodcastLookupKey::AppleId("1200361736".to_owned()))
        );
        assert_eq!(
            podcast_lookup_key(None, None, None, Some("abc")),
            Ok(PodcastLookupKey::PodlensId("abc".to_owned()))
        );
        assert_eq!(
            podcast_lookup_key(None, Some("s"), Some("x"), Some("y")),
            Err(ValidationError::LookupMoreThanOne)
        );
        assert_eq!(
            podcast_lookup_key(None, Some(""), None, None)
                .unwrap_err()
                .to_string(),
            "One of appleId, slug, spotifyId, or podlensId is required"
        );
    }
}
