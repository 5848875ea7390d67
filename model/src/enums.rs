//! Every enumeration of SPEC.md §3, §4 and §9 with its exact wire values.
//!
//! Each type comes from `wire_enum!`: it has `ALL` (in the spec's order), `as_str`,
//! `parse` (unknown values are `None`), `Display`, and serde that rejects unknown
//! values. Where the Pod Engine SDK (`podengine==0.3.2`, `models.py`) accepts more
//! values than the spec lists, the extra SDK values come after the spec's and the
//! doc comment says so: the server must be able to speak whatever the SDK validates.

use std::cmp::Ordering;

// `wire_enum!` derives serde's traits by their bare names.
use serde::{Deserialize, Serialize};

use crate::kinds::wire_enum;

wire_enum! {
    /// How often a podcast publishes (`stats.updateFrequency`). The spec lists five
    /// values; the SDK's `...Variant2Stats.update_frequency` also has `very-stale`.
    UpdateFrequency {
        Daily => "daily", Weekly => "weekly", BiWeekly => "bi-weekly",
        Monthly => "monthly", Stale => "stale", VeryStale => "very-stale",
    }
}

wire_enum! {
    /// The 12 kinds of organisation a podcast can belong to
    /// (`podcastAffiliation.affiliationType`). Four values contain spaces.
    AffiliationType {
        Academic => "academic", Branded => "branded", Celebrity => "celebrity",
        Government => "government", Independent => "independent",
        LegacyMedia => "legacy media", PodcastCompany => "podcast company",
        NewMedia => "new media", NotForProfit => "not for profit",
        Religious => "religious", Other => "other", Unknown => "unknown",
    }
}

wire_enum! {
    /// Which episodes of a podcast are transcribed (`transcriptionMode.mode`).
    TranscriptionModeKind {
        None => "none", All => "all", EpisodesSince => "episodes-since",
    }
}

wire_enum! {
    /// The pipeline status of a podcast in a project (SDK `status`/`state`).
    /// A newly added listed podcast is a prospect (see `Default`).
    ListedPodcastStatus {
        Prospect => "prospect", Qualified => "qualified", Pitched => "pitched",
        Lost => "lost", Booked => "booked", Ignored => "ignored",
    }
}

// `wire_enum!` owns the derives, so the default is written out.
#[allow(clippy::derivable_impls)]
impl Default for ListedPodcastStatus {
    /// SPEC.md §4: a newly added listed podcast defaults to prospect.
    fn default() -> Self {
        ListedPodcastStatus::Prospect
    }
}

wire_enum! {
    /// Priority of a listed podcast or a search strategy, ascending
    /// (declaration order is the spec's ascending order, so `Ord` follows it).
    Priority {
        Low => "low", Medium => "medium", High => "high", Urgent => "urgent",
    }
}

impl Priority {
    /// Ascending order (low, medium, high, urgent) with a missing priority last.
    pub fn ascending_missing_last(a: Option<Priority>, b: Option<Priority>) -> Ordering {
        match (a, b) {
            (Some(a), Some(b)) => a.cmp(&b),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        }
    }

    /// Descending order (urgent first) with a missing priority still last.
    pub fn descending_missing_last(a: Option<Priority>, b: Option<Priority>) -> Ordering {
        match (a, b) {
            (Some(a), Some(b)) => b.cmp(&a),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        }
    }
}

wire_enum! {
    /// Status of a project. The SDK also uses these values for a linked guest
    /// profile's `status` (`GetProjectsResponseProjectsItemLinkedGuestProfile`).
    ProjectStatus {
        Draft => "DRAFT", Pending => "PENDING", Active => "ACTIVE",
        Archived => "ARCHIVED", Error => "ERROR",
    }
}

wire_enum! {
    /// Sort order of the project list (SDK `get_projects(sort_by=...)`).
    ProjectSortBy {
        RecentActivity => "recent-activity", Name => "name", Created => "created",
    }
}

wire_enum! {
    /// What a project is for (`projectTypes[]`).
    ProjectType {
        Advertisers => "advertisers", Api => "api", ContentCreation => "content-creation",
        GuestBooking => "guest-booking", InterestingPodcasts => "interesting-podcasts",
        LeadGeneration => "lead-generation", Monitoring => "monitoring", Other => "other",
        Transcriptions => "transcriptions",
    }
}

wire_enum! {
    /// Processing status of a guest profile built from an onboarding form.
    /// (The SDK's guest-profile detail `status` carries `ProjectStatus` values instead.)
    GuestProfileStatus {
        Draft => "DRAFT", CreatingDocumentFromForm => "CREATING_DOCUMENT_FROM_FORM",
        ProcessingDocuments => "PROCESSING_DOCUMENTS", GeneratingProfile => "GENERATING_PROFILE",
        Done => "DONE", Error => "ERROR",
    }
}

wire_enum! {
    /// Role of a person in a podcast or episode. The spec lists guest, host and
    /// unknown; the SDK's guests-and-hosts `type` also has `mentioned`.
    PersonType {
        Guest => "guest", Host => "host", Unknown => "unknown", Mentioned => "mentioned",
    }
}

wire_enum! {
    /// Kind of sponsorship mentioned in an episode.
    SponsorType {
        Sponsor => "sponsor", Advertiser => "advertiser", Guest => "guest",
        Affiliate => "affiliate", SelfPromotion => "self promotion", Charity => "charity",
        Donation => "donation", Other => "other", Unknown => "unknown",
    }
}

wire_enum! {
    /// The two chart providers (`chartType`).
    ChartType {
        Apple => "apple", Spotify => "spotify",
    }
}

wire_enum! {
    /// The 21 top-level chart categories (subcategories are free text on the wire:
    /// the SDK types `category` as a plain string).
    ChartCategory {
        TopPodcasts => "top podcasts", TrendingPodcasts => "trending podcasts",
        Arts => "arts", Business => "business", Comedy => "comedy",
        Education => "education", Fiction => "fiction", Government => "government",
        HealthAndFitness => "health & fitness", History => "history",
        KidsAndFamily => "kids & family", Leisure => "leisure", Music => "music",
        News => "news", ReligionAndSpirituality => "religion & spirituality",
        Science => "science", SocietyAndCulture => "society & culture", Sports => "sports",
        Technology => "technology", TrueCrime => "true crime", TvAndFilm => "tv & film",
    }
}

wire_enum! {
    /// How often a chart is captured.
    ChartFrequency {
        Hourly => "hourly", Daily => "daily", Weekly => "weekly",
    }
}

wire_enum! {
    /// A chart position's change status against the comparison chart
    /// (SDK `GetChartResponseChartPositionsItem.movement`).
    ChartMovement {
        Up => "up", Down => "down", Unchanged => "unchanged", Entered => "entered",
        Unknown => "unknown",
    }
}

wire_enum! {
    /// The comparison window of a chart (SDK `compare`).
    ChartCompare {
        OneDay => "1d", SevenDays => "7d",
    }
}

wire_enum! {
    /// How completely a chart snapshot was resolved to catalog podcasts
    /// (SDK `coverageStatus`).
    ChartCoverageStatus {
        Complete => "complete", UnresolvedIdentities => "unresolved_identities",
        Incomplete => "incomplete",
    }
}

wire_enum! {
    /// Whether a comparison chart exists (SDK `comparisonStatus`).
    ChartComparisonStatus {
        Available => "available", Unavailable => "unavailable",
    }
}

wire_enum! {
    /// Coverage of one day in a chart's history window
    /// (SDK `historyWindow.coverage`): the coverage statuses plus `no_chart`.
    ChartDayCoverage {
        Complete => "complete", UnresolvedIdentities => "unresolved_identities",
        Incomplete => "incomplete", NoChart => "no_chart",
    }
}

wire_enum! {
    /// What a podcast's position history says about one day (SDK `history30dStatus`).
    ChartDayStatus {
        Observed => "observed", OffChart => "off_chart", NoChart => "no_chart",
        Unknown => "unknown",
    }
}

wire_enum! {
    /// Why a chart has no comparison (SDK `comparisonUnavailableReason`).
    ChartComparisonUnavailableReason {
        NoEarlierChart => "no_earlier_chart",
    }
}

wire_enum! {
    /// Labels put on a podcast when it is added to a list. The spec lists
    /// automated and guest-appearance; the SDK's `add_podcast_to_project` also sends `mcp`.
    ListedPodcastLabel {
        Automated => "automated", GuestAppearance => "guest-appearance", Mcp => "mcp",
    }
}

wire_enum! {
    /// What happened to a listed podcast (`activityHistory[].actionType`).
    ActivityActionType {
        AddedToList => "added-to-list", UpdateLabels => "update-labels",
        UpdatePriority => "update-priority", UpdateState => "update-state",
    }
}

wire_enum! {
    /// Outreach email voice.
    OutreachPerspective {
        First => "first", Third => "third",
    }
}

wire_enum! {
    /// Outreach email length.
    EmailLength {
        Short => "short", Medium => "medium", Long => "long",
    }
}

wire_enum! {
    /// How insistent an outreach email's call to action is.
    CallToActionStyle {
        Light => "light", Medium => "medium", Heavy => "heavy",
    }
}

wire_enum! {
    /// How personalised an outreach email is.
    PersonalizationLevel {
        Light => "light", Medium => "medium", Heavy => "heavy",
    }
}

wire_enum! {
    /// Outreach generation mode; basic by default.
    GenerationMode {
        Basic => "basic", Advanced => "advanced",
    }
}

// `wire_enum!` owns the derives, so the default is written out.
#[allow(clippy::derivable_impls)]
impl Default for GenerationMode {
    fn default() -> Self {
        GenerationMode::Basic
    }
}

wire_enum! {
    /// The five provided outreach email templates.
    OutreachTemplateKind {
        Default => "default", Concise => "concise", TopicsIdeas => "topicsIdeas",
        Discussion => "discussion", UltraConcise => "ultraConcise",
    }
}

wire_enum! {
    /// What a custom prompt runs on.
    CustomPromptContextType {
        Podcast => "podcast", Episode => "episode", Transcript => "transcript",
    }
}

wire_enum! {
    /// The context a user template is written for.
    TemplateContext {
        GuestBooking => "guest-booking",
    }
}

wire_enum! {
    /// Reasons for using the product (onboarding); `other` requires a text.
    UsageReason {
        Advertising => "advertising", Api => "api", Content => "content", Guests => "guests",
        Leads => "leads", Monitoring => "monitoring", Other => "other",
        Transcripts => "transcripts",
    }
}

wire_enum! {
    /// Status of a transcription request.
    TranscriptionRequestStatus {
        NotStarted => "not_started", Completed => "completed",
    }
}

wire_enum! {
    /// What kind of work a request in the request history asked for
    /// (SDK `requestType`).
    RequestType {
        AutoOutreach => "autoOutreach", DeepAnalysis => "deepAnalysis",
        Diarization => "diarization", GuestPrep => "guestPrep",
        Transcription => "transcription",
    }
}

wire_enum! {
    /// How daring a search strategy is.
    StrategyApproach {
        Straightforward => "straightforward", Unconventional => "unconventional",
        Longshot => "longshot",
    }
}

wire_enum! {
    /// How search results are shown; list by default.
    ResultsView {
        List => "list", Table => "table",
    }
}

// `wire_enum!` owns the derives, so the default is written out.
#[allow(clippy::derivable_impls)]
impl Default for ResultsView {
    fn default() -> Self {
        ResultsView::List
    }
}

wire_enum! {
    /// Why a podcast is in a team's podcasts. The spec lists three values; the
    /// SDK's `GetTeamPodcastsResponseTeamPodcastsItem.added_reason` also has
    /// `migration` and `search-export`.
    TeamPodcastAddedReason {
        AddToTeamPodcastsButton => "add-to-team-podcasts-button",
        ListedPodcast => "listed-podcast", Script => "script",
        Migration => "migration", SearchExport => "search-export",
    }
}

wire_enum! {
    /// Column groups of a podcast export.
    ExportColumn {
        BasicInfo => "basicInfo", Description => "description", Location => "location",
        Website => "website", ContactDetails => "contactDetails", Socials => "socials",
        AppleReviews => "appleReviews", SpotifyReviews => "spotifyReviews",
        CastboxListens => "castboxListens", AuthorityScore => "authorityScore",
    }
}

wire_enum! {
    /// Export file format.
    ExportFormat {
        Csv => "csv", Json => "json",
    }
}

wire_enum! {
    /// Transcript download format; txt by default. The spec allows vtt and txt;
    /// the SDK's `download_episode_transcript` also sends `sentence-vtt`.
    TranscriptFormat {
        Vtt => "vtt", Txt => "txt", SentenceVtt => "sentence-vtt",
    }
}

// `wire_enum!` owns the derives, so the default is written out.
#[allow(clippy::derivable_impls)]
impl Default for TranscriptFormat {
    fn default() -> Self {
        TranscriptFormat::Txt
    }
}

wire_enum! {
    /// Audience age bracket (SDK `audienceDemographics.ageRange`).
    AgeRange {
        Under18 => "Under 18", From18To24 => "18-24", From25To34 => "25-34",
        From35To44 => "35-44", From45To54 => "45-54", Over55 => "55+",
    }
}

wire_enum! {
    /// Audience income bracket (SDK `audienceDemographics.incomeLevel`).
    IncomeLevel {
        Under25K => "Under $25K", From25KTo50K => "$25K-$50K", From50KTo75K => "$50K-$75K",
        From75KTo100K => "$75K-$100K", From100KTo150K => "$100K-$150K",
        From150KTo200K => "$150K-$200K", Over200K => "$200K+",
    }
}

wire_enum! {
    /// Audience education bracket (SDK `audienceDemographics.educationLevel`).
    EducationLevel {
        NoHighSchool => "No High School", HighSchool => "High School",
        SomeCollege => "Some College", BachelorsDegree => "Bachelors Degree",
        MastersDegree => "Masters Degree", Doctorate => "Doctorate",
    }
}

wire_enum! {
    /// Audience gender skew (SDK `audienceDemographics.genderSkew`). The spec
    /// describes steps of 20% from all female to all male; the SDK adds an even
    /// 50/50 split between the 40% and 60% steps.
    GenderSkew {
        AllFemale => "Male 0% Female 100%", Male20 => "Male 20% Female 80%",
        Male40 => "Male 40% Female 60%", Even => "Male 50% Female 50%",
        Male60 => "Male 60% Female 40%", Male80 => "Male 80% Female 20%",
        AllMale => "Male 100% Female 0%",
    }
}

wire_enum! {
    /// Estimated monthly listeners as a bracket (SDK `estimatedMonthlyListenersBucket`).
    ListenersBucket {
        UpTo1K => "0-1K", From1KTo10K => "1K-10K", From10KTo100K => "10K-100K",
        From100KTo1M => "100K-1M", Over1M => "1M+",
    }
}

wire_enum! {
    /// Where a podcast's social link was found (SDK `socialMediaLinks[].sources`).
    SocialLinkSource {
        ApplePodcasts => "apple-podcasts", BrightDataDataset => "bright-data-dataset",
        GoogleSearch => "google-search", Linktree => "linktree",
        PodcastWebsite => "podcast-website", Podchaser => "podchaser",
        Rephonic => "rephonic", Rss => "rss", YoutubeChannelLinks => "youtube-channel-links",
        YoutubeEpisodeSearch => "youtube-episode-search", YoutubeSerp => "youtube-serp",
        YoutubeApiSearch => "youtube-api-search",
    }
}

wire_enum! {
    /// Result of checking a contact email (SDK `emails[].deliverabilityStatus`).
    EmailDeliverability {
        Valid => "valid", Invalid => "invalid", CatchAll => "catch-all", Unknown => "unknown",
        Spamtrap => "spamtrap", Abuse => "abuse", DoNotMail => "do_not_mail",
    }
}

wire_enum! {
    /// Metered usage counters (SDK `GetCurrentResponseAliasesItem.alias`; also the
    /// keys of `usageByAlias` and `limits` in the daily and monthly usage).
    UsageAlias {
        DeepResearchRequests => "deepResearchRequests",
        DiarizationRequests => "diarizationRequests", EpisodeLookups => "episodeLookups",
        ExportCount => "exportCount", PodcastLookups => "podcastLookups",
        SearchCount => "searchCount", TranscriptDownloadCount => "transcriptDownloadCount",
        TranscriptionRequests => "transcriptionRequests",
    }
}

#[cfg(test)]
mod tests;
