//! The six plans of SPEC.md §6 and §9 as data: the limits table (`Plan::limits`), the
//! permissions, which search filters each tier may use (`Plan::allows_filter`), pricing
//! and the pricing page's call to action.
//!
//! Conventions: `None` means unlimited and `Some(0)` means none. Where the limits table
//! shows "-", the item does not exist for that tier: for every tier but admin that is
//! `Some(0)`; for admin, whose usage is unlimited (§6), it is `None`.

use serde::{Deserialize, Serialize};

use crate::enums::TranscriptFormat;
use crate::kinds::wire_enum;

wire_enum! {
    /// A plan tier, lowest first: the derived order is the upgrade order.
    Plan {
        Public => "public", Free => "free", Individual => "individual",
        Business => "business", Agency => "agency", Admin => "admin",
    }
}

wire_enum! {
    /// The period a metered quota resets over.
    QuotaPeriod { Day => "day", Month => "month" }
}

wire_enum! {
    /// Podcast fields shown only from some tier up (§6 "extra podcast fields").
    PodcastExtraField {
        Ratings => "ratings", Castbox => "castbox", Guests => "guests", Socials => "socials",
        AppleId => "appleId", PrimaryContact => "primaryContact", Countries => "countries",
        Genres => "genres", ChartPositions => "chartPositions",
    }
}

/// A metered allowance: `amount` uses per `period`; `None` is unlimited.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Quota {
    pub amount: Option<u32>,
    pub period: QuotaPeriod,
}

impl Quota {
    const fn per_day(amount: u32) -> Self {
        Quota {
            amount: Some(amount),
            period: QuotaPeriod::Day,
        }
    }

    const fn per_month(amount: u32) -> Self {
        Quota {
            amount: Some(amount),
            period: QuotaPeriod::Month,
        }
    }

    const fn unlimited_per_month() -> Self {
        Quota {
            amount: None,
            period: QuotaPeriod::Month,
        }
    }

    /// Whether `used` uses still leave room for one more.
    pub fn allows_another(self, used: u64) -> bool {
        self.amount.is_none_or(|amount| used < u64::from(amount))
    }
}

/// Automated search sizes: strategies per list and search terms per candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AutomatedSearchLimits {
    pub strategies_per_list: u32,
    pub terms_per_candidate: u32,
}

/// The whole limits table of §9 for one tier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanLimits {
    pub searches: Quota,
    pub max_results_per_search: u32,
    pub ai_assists: Quota,
    pub alerts: Option<u32>,
    pub projects: Option<u32>,
    pub podcasts_per_project: Option<u32>,
    /// `None`: automated search is not available on the tier.
    pub automated_search: Option<AutomatedSearchLimits>,
    pub advanced_contacts_per_month: Option<u32>,
    pub exports_per_month: Option<u32>,
    pub max_entries_per_export: Option<u32>,
    pub transcript_downloads_per_month: Option<u32>,
    pub transcription_requests_per_month: Option<u32>,
}

const fn automated(
    strategies_per_list: u32,
    terms_per_candidate: u32,
) -> Option<AutomatedSearchLimits> {
    Some(AutomatedSearchLimits {
        strategies_per_list,
        terms_per_candidate,
    })
}

const PUBLIC_LIMITS: PlanLimits = PlanLimits {
    searches: Quota::per_day(20),
    max_results_per_search: 3,
    ai_assists: Quota::per_day(0),
    alerts: Some(0),
    projects: Some(0),
    podcasts_per_project: Some(0),
    automated_search: None,
    advanced_contacts_per_month: Some(0),
    exports_per_month: Some(0),
    max_entries_per_export: Some(0),
    transcript_downloads_per_month: Some(0),
    transcription_requests_per_month: Some(0),
};

const FREE_LIMITS: PlanLimits = PlanLimits {
    searches: Quota::per_day(10),
    max_results_per_search: 10,
    ai_assists: Quota::per_day(3),
    alerts: Some(1),
    projects: Some(1),
    podcasts_per_project: Some(100),
    automated_search: None,
    advanced_contacts_per_month: Some(0),
    exports_per_month: Some(0),
    max_entries_per_export: Some(0),
    transcript_downloads_per_month: Some(0),
    transcription_requests_per_month: Some(0),
};

const INDIVIDUAL_LIMITS: PlanLimits = PlanLimits {
    searches: Quota::per_month(300),
    max_results_per_search: 100,
    ai_assists: Quota::per_month(100),
    alerts: Some(10),
    projects: Some(3),
    podcasts_per_project: Some(50),
    automated_search: automated(3, 5),
    advanced_contacts_per_month: Some(0),
    exports_per_month: Some(0),
    max_entries_per_export: Some(100),
    transcript_downloads_per_month: Some(0),
    transcription_requests_per_month: Some(100),
};

const BUSINESS_LIMITS: PlanLimits = PlanLimits {
    searches: Quota::per_month(1000),
    max_results_per_search: 100,
    ai_assists: Quota::per_month(300),
    alerts: Some(30),
    projects: Some(5),
    podcasts_per_project: Some(100),
    automated_search: automated(1, 5),
    advanced_contacts_per_month: Some(10),
    exports_per_month: Some(100),
    max_entries_per_export: Some(1000),
    transcript_downloads_per_month: Some(1000),
    transcription_requests_per_month: Some(500),
};

const AGENCY_LIMITS: PlanLimits = PlanLimits {
    searches: Quota::per_month(5000),
    max_results_per_search: 100,
    ai_assists: Quota::per_month(1000),
    alerts: Some(100),
    projects: Some(50),
    podcasts_per_project: Some(200),
    automated_search: automated(10, 10),
    advanced_contacts_per_month: Some(50),
    exports_per_month: Some(100),
    max_entries_per_export: Some(1000),
    transcript_downloads_per_month: Some(2000),
    transcription_requests_per_month: Some(2000),
};

const ADMIN_LIMITS: PlanLimits = PlanLimits {
    searches: Quota::unlimited_per_month(),
    max_results_per_search: 100,
    // The table gives admin 1000 without a period; usage is metered monthly above free.
    ai_assists: Quota::per_month(1000),
    alerts: Some(500),
    projects: None,
    podcasts_per_project: Some(1000),
    automated_search: automated(7, 9),
    advanced_contacts_per_month: None,
    exports_per_month: None,
    max_entries_per_export: Some(5000),
    transcript_downloads_per_month: None,
    transcription_requests_per_month: None,
};

/// Seats-like extras granted to three named teams instead of their tier's amount
/// (§6). The specification shows the amounts, not the teams: operators map their own
/// team ids to these through [`SeatExtrasException`].
pub const NAMED_TEAM_SEAT_EXTRAS: [u32; 3] = [30, 3, 50];

/// One team whose seat-like extras differ from its tier's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SeatExtrasException {
    pub team_id: String,
    pub seats: u32,
}

impl Plan {
    /// The plans sold on the pricing page, cheapest first.
    pub const PRICED: [Plan; 3] = [Plan::Free, Plan::Business, Plan::Agency];

    /// The limits table of §9 for this tier.
    pub const fn limits(self) -> PlanLimits {
        match self {
            Plan::Public => PUBLIC_LIMITS,
            Plan::Free => FREE_LIMITS,
            Plan::Individual => INDIVIDUAL_LIMITS,
            Plan::Business => BUSINESS_LIMITS,
            Plan::Agency => AGENCY_LIMITS,
            Plan::Admin => ADMIN_LIMITS,
        }
    }

    /// Whether this tier is a paying one (individual and above, admin included).
    pub fn is_paid(self) -> bool {
        self >= Plan::Individual
    }

    /// Only admin may set a search's page size.
    pub fn may_set_page_size(self) -> bool {
        self == Plan::Admin
    }

    /// How many members a team on this tier may have: `Some(0)` none, `None` unlimited.
    pub fn team_member_limit(self) -> Option<u32> {
        if self >= Plan::Business {
            None
        } else {
            Some(0)
        }
    }

    /// How many bytes of guest-profile documents a team on this tier may store in all
    /// (uploads are 5 files of 5 MB a request; without a total, repeated uploads could
    /// fill the server's disk). Documents are kept with their profile, archived ones
    /// included, so the quota counts every document the team uploaded.
    pub fn guest_document_storage_bytes(self) -> u64 {
        const MB: u64 = 1024 * 1024;
        match self {
            Plan::Public => 0,
            Plan::Free => 25 * MB,
            Plan::Individual => 100 * MB,
            Plan::Business => 500 * MB,
            Plan::Agency => 2048 * MB,
            Plan::Admin => 10 * 1024 * MB,
        }
    }

    /// Whether API keys work for this tier.
    pub fn has_api_access(self) -> bool {
        self >= Plan::Business
    }

    /// Whether contacts may be exported.
    pub fn may_export_contacts(self) -> bool {
        self >= Plan::Business
    }

    /// Whether internal (team-collected) contacts are visible.
    pub fn sees_internal_contacts(self) -> bool {
        self >= Plan::Business
    }

    /// Whether the primary contact taken from the RSS feed is visible.
    pub fn sees_rss_primary_contacts(self) -> bool {
        self >= Plan::Individual
    }

    /// The transcript download formats this tier may use: txt from individual, txt
    /// and vtt from business. The SDK's `sentence-vtt` is a flavour of vtt and follows it.
    pub fn transcript_formats(self) -> &'static [TranscriptFormat] {
        match self {
            Plan::Public | Plan::Free => &[],
            Plan::Individual => &[TranscriptFormat::Txt],
            Plan::Business | Plan::Agency | Plan::Admin => &[
                TranscriptFormat::Txt,
                TranscriptFormat::Vtt,
                TranscriptFormat::SentenceVtt,
            ],
        }
    }

    /// Whether automated search may be switched on.
    pub fn allows_automated_search(self) -> bool {
        self >= Plan::Individual
    }

    /// The extra podcast fields this tier sees.
    pub fn podcast_extra_fields(self) -> &'static [PodcastExtraField] {
        use PodcastExtraField::*;
        match self {
            Plan::Public => &[],
            Plan::Free => &[Ratings, Castbox, Guests, Socials],
            Plan::Individual | Plan::Business | Plan::Agency => &[
                Ratings,
                Castbox,
                Guests,
                Socials,
                AppleId,
                PrimaryContact,
                Countries,
            ],
            Plan::Admin => &[
                Ratings,
                Castbox,
                Guests,
                Socials,
                AppleId,
                PrimaryContact,
                Countries,
                Genres,
                ChartPositions,
            ],
        }
    }

    /// Seat-like extras of the tier (`None` unlimited), before team exceptions.
    pub fn seat_extras(self) -> Option<u32> {
        match self {
            Plan::Public | Plan::Free => Some(0),
            Plan::Individual | Plan::Business => Some(1),
            Plan::Agency => Some(10),
            Plan::Admin => None,
        }
    }

    /// Seat-like extras of one team: its exception when it has one, else the tier's.
    pub fn seat_extras_for_team(
        self,
        team_id: &str,
        exceptions: &[SeatExtrasException],
    ) -> Option<u32> {
        exceptions
            .iter()
            .find(|exception| exception.team_id == team_id)
            .map(|exception| Some(exception.seats))
            .unwrap_or_else(|| self.seat_extras())
    }

    /// The lowest tier that may use search option `name` (a wire key of the search
    /// options), or `None` when `name` is not a plan-gated option.
    pub fn minimum_tier_for_filter(name: &str) -> Option<Plan> {
        SEARCH_FILTER_TIERS
            .iter()
            .find(|(filter, _)| *filter == name)
            .map(|(_, tier)| *tier)
    }

    /// Whether this tier may use search filter `name` (a wire key of the search
    /// options, e.g. `podcastCountries`). Unknown names are not allowed.
    pub fn allows_filter(self, name: &str) -> bool {
        Plan::minimum_tier_for_filter(name).is_some_and(|minimum| self >= minimum)
    }

    /// The pricing page's price for this tier, `None` when it is not sold there.
    pub fn price(self) -> Option<PlanPrice> {
        match self {
            Plan::Free => Some(PlanPrice::Free),
            Plan::Business => Some(PlanPrice::Paid {
                annual: 1000,
                monthly: 100,
                purchase: Purchase::PaymentLink,
            }),
            Plan::Agency => Some(PlanPrice::Paid {
                annual: 5000,
                monthly: 500,
                purchase: Purchase::BookDemo,
            }),
            Plan::Public | Plan::Individual | Plan::Admin => None,
        }
    }
}

/// The search options gated by plan, by wire key, with the lowest tier allowed (§6).
///
/// Public gets genres, excluded podcasts, explicit, founded date, languages and the
/// last-episode date; free adds has-transcript, included podcast and episode ids,
/// episode totals, Castbox, ratings and `publishedSince`; paid tiers get every other
/// filter, among them the paid-only contacts (`hasPrimaryContact`), countries, socials
/// and guests (`podcastHasGuests`, `personFilters`) filters. The page size is admin
/// only. The project context needs a plan with projects (free and above).
pub const SEARCH_FILTER_TIERS: &[(&str, Plan)] = &[
    ("excludeItunesGenres", Plan::Public),
    ("includeItunesGenres", Plan::Public),
    ("excludePodcastIds", Plan::Public),
    ("explicit", Plan::Public),
    ("foundedSince", Plan::Public),
    ("languages", Plan::Public),
    ("lastEpisodeDateSince", Plan::Public),
    ("hasTranscript", Plan::Free),
    ("includePodcastIds", Plan::Free),
    ("includeEpisodeIds", Plan::Free),
    ("minTotalEpisodes", Plan::Free),
    ("maxTotalEpisodes", Plan::Free),
    ("minCastboxPlays", Plan::Free),
    ("minCastboxSubscribers", Plan::Free),
    ("minItunesRating", Plan::Free),
    ("minItunesRatingCount", Plan::Free),
    ("minSpotifyRating", Plan::Free),
    ("minSpotifyRatingCount", Plan::Free),
    ("publishedSince", Plan::Free),
    ("project", Plan::Free),
    ("projectId", Plan::Free),
    ("excludeEpisodeIds", Plan::Individual),
    ("hasPrimaryContact", Plan::Individual),
    ("hasSocials", Plan::Individual),
    ("podcastCountries", Plan::Individual),
    ("podcastHasGuests", Plan::Individual),
    ("personFilters", Plan::Individual),
    ("sponsorFilters", Plan::Individual),
    ("podcastAuthorityScore", Plan::Individual),
    ("podcastAudienceEstimatedMonthlyListeners", Plan::Individual),
    ("publishedBefore", Plan::Individual),
    ("episodeUpdatedSince", Plan::Individual),
    ("episodeCreatedSince", Plan::Individual),
    ("pageSize", Plan::Admin),
];

/// How a priced plan is bought.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Purchase {
    /// Checkout through a payment link.
    PaymentLink,
    /// No payment link: the buyer books a demo.
    BookDemo,
}

/// A plan's price on the pricing page, in whole currency units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum PlanPrice {
    /// No price.
    Free,
    Paid {
        annual: u32,
        monthly: u32,
        purchase: Purchase,
    },
}

wire_enum! {
    /// Where the visitor stands relative to a plan shown on the pricing page.
    PricingSituation {
        LoggedOut => "logged-out", SamePlan => "same-plan",
        Downgrade => "downgrade", Upgrade => "upgrade",
    }
}

wire_enum! {
    /// The button a pricing card shows.
    CallToAction {
        CreateAccount => "create-account", TryNow => "try-now",
        ManageAccount => "manage-account", Upgrade => "upgrade", BookDemo => "book-demo",
    }
}

impl PricingSituation {
    /// The situation of a visitor on `current` (`None` when signed out) looking at `shown`.
    pub fn between(current: Option<Plan>, shown: Plan) -> Self {
        match current {
            None => PricingSituation::LoggedOut,
            Some(plan) if plan == shown => PricingSituation::SamePlan,
            Some(plan) if plan > shown => PricingSituation::Downgrade,
            Some(_) => PricingSituation::Upgrade,
        }
    }
}

/// The call to action of §9 for a pricing card of `shown` in `situation`, `None` when
/// the table has none (a plan not on the pricing page, or upgrading to free).
pub fn call_to_action(shown: Plan, situation: PricingSituation) -> Option<CallToAction> {
    use CallToAction::*;
    use PricingSituation::*;
    match (shown, situation) {
        (Plan::Free, LoggedOut) => Some(CreateAccount),
        (Plan::Free, SamePlan) => Some(TryNow),
        (Plan::Free, Downgrade) => Some(ManageAccount),
        (Plan::Free, PricingSituation::Upgrade) => None,
        (Plan::Business, LoggedOut) => Some(CreateAccount),
        (Plan::Business, SamePlan | Downgrade) => Some(ManageAccount),
        (Plan::Business, PricingSituation::Upgrade) => Some(CallToAction::Upgrade),
        (Plan::Agency, LoggedOut | PricingSituation::Upgrade) => Some(BookDemo),
        (Plan::Agency, SamePlan | Downgrade) => Some(ManageAccount),
        (Plan::Public | Plan::Individual | Plan::Admin, _) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The limits table exactly as SPEC.md §9 prints it.
    const SPEC_LIMITS_TABLE: &str = "\
| Searches | 20/day | 10/day | 300/month | 1000/month | 5000/month | unlimited |
| Max results per search | 3 | 10 | 100 | 100 | 100 | 100 |
| AI assist | - | 3/day | 100/month | 300/month | 1000/month | 1000 |
| Alerts | 0 | 1 | 10 | 30 | 100 | 500 |
| Projects (count, podcasts each) | - | 1, 100 | 3, 50 | 5, 100 | 50, 200 | unlimited, 1000 |
| Automated search (strategies per list / terms per candidate) | - | none | 3/5 | 1/5 | 10/10 | 7/9 |
| Advanced contacts per month | - | - | - | 10 | 50 | unlimited |
| Exports per month | - | - | - | 100 | 100 | unlimited |
| Max entries per export | - | - | 100 | 1000 | 1000 | 5000 |
| Transcript downloads per month | - | - | 0 | 1000 | 2000 | - |
| Transcription requests per month | - | - | 100 | 500 | 2000 | - |
";

    /// Reads one spec cell with the module's conventions: "-" is none below admin and
    /// unlimited for admin, "unlimited" is `None`.
    fn cell_amount(cell: &str, plan: Plan) -> Option<u32> {
        match cell {
            "unlimited" => None,
            "-" | "none" if plan == Plan::Admin => None,
            "-" | "none" => Some(0),
            number => Some(number.parse().unwrap()),
        }
    }

    fn cell_quota(cell: &str, plan: Plan) -> (Option<u32>, Option<QuotaPeriod>) {
        match cell.split_once('/') {
            Some((amount, period)) => (cell_amount(amount, plan), QuotaPeriod::parse(period)),
            None => (cell_amount(cell, plan), None),
        }
    }

    fn spec_rows() -> Vec<(String, Vec<String>)> {
        SPEC_LIMITS_TABLE
            .lines()
            .map(|line| {
                let cells: Vec<String> = line
                    .trim_matches('|')
                    .split('|')
                    .map(|cell| cell.trim().to_owned())
                    .collect();
                (cells[0].clone(), cells[1..].to_vec())
            })
            .collect()
    }

    #[test]
    fn limits_match_every_cell_of_the_spec_table() {
        let rows = spec_rows();
        assert_eq!(rows.len(), 11);
        for (column, plan) in Plan::ALL.iter().copied().enumerate() {
            let limits = plan.limits();
            for (item, cells) in &rows {
                let cell = cells[column].as_str();
                match item.as_str() {
                    "Searches" => {
                        let (amount, period) = cell_quota(cell, plan);
                        assert_eq!(limits.searches.amount, amount, "{plan} searches");
                        if let Some(period) = period {
                            assert_eq!(limits.searches.period, period, "{plan} searches");
                        }
                    }
                    "Max results per search" => {
                        assert_eq!(Some(limits.max_results_per_search), cell_amount(cell, plan))
                    }
                    "AI assist" => {
                        let (amount, period) = cell_quota(cell, plan);
                        let expected = if plan == Plan::Admin {
                            Some(1000)
                        } else {
                            amount
                        };
                        assert_eq!(limits.ai_assists.amount, expected, "{plan} ai");
                        if let Some(period) = period {
                            assert_eq!(limits.ai_assists.period, period, "{plan} ai");
                        }
                    }
                    "Alerts" => assert_eq!(limits.alerts, cell_amount(cell, plan), "{plan} alerts"),
                    "Projects (count, podcasts each)" => {
                        let (count, each) = cell.split_once(", ").unwrap_or((cell, cell));
                        assert_eq!(limits.projects, cell_amount(count, plan), "{plan} projects");
                        assert_eq!(
                            limits.podcasts_per_project,
                            cell_amount(each, plan),
                            "{plan}"
                        );
                    }
                    "Automated search (strategies per list / terms per candidate)" => {
                        let expected =
                            cell.split_once('/')
                                .map(|(strategies, terms)| AutomatedSearchLimits {
                                    strategies_per_list: strategies.parse().unwrap(),
                                    terms_per_candidate: terms.parse().unwrap(),
                                });
                        assert_eq!(limits.automated_search, expected, "{plan} automated");
                    }
                    "Advanced contacts per month" => {
                        assert_eq!(limits.advanced_contacts_per_month, cell_amount(cell, plan))
                    }
                    "Exports per month" => {
                        assert_eq!(limits.exports_per_month, cell_amount(cell, plan), "{plan}")
                    }
                    "Max entries per export" => {
                        assert_eq!(
                            limits.max_entries_per_export,
                            cell_amount(cell, plan),
                            "{plan}"
                        )
                    }
                    "Transcript downloads per month" => assert_eq!(
                        limits.transcript_downloads_per_month,
                        cell_amount(cell, plan),
                        "{plan}"
                    ),
                    "Transcription requests per month" => assert_eq!(
                        limits.transcription_requests_per_month,
                        cell_amount(cell, plan),
                        "{plan}"
                    ),
                    other => panic!("unexpected row {other}"),
                }
            }
        }
    }

    #[test]
    fn plans_serialize_strictly() {
        assert_eq!(serde_json::to_string(&Plan::Agency).unwrap(), "\"agency\"");
        assert_eq!(
            serde_json::from_str::<Plan>("\"free\"").unwrap(),
            Plan::Free
        );
        assert!(serde_json::from_str::<Plan>("\"Free\"").is_err());
        assert!(serde_json::from_str::<Plan>("\"enterprise\"").is_err());
        assert_eq!(Plan::parse("pro"), None);
        assert_eq!(Plan::ALL.len(), 6);
    }

    #[test]
    fn quota_counts_usage() {
        let free = Plan::Free.limits().searches;
        assert!(free.allows_another(9));
        assert!(!free.allows_another(10));
        assert!(Plan::Admin.limits().searches.allows_another(u64::MAX));
        assert!(!Plan::Public.limits().ai_assists.allows_another(0));
    }

    #[test]
    fn permissions_follow_section_6() {
        let from_business = [Plan::Business, Plan::Agency, Plan::Admin];
        for plan in Plan::ALL.iter().copied() {
            let business_up = from_business.contains(&plan);
            assert_eq!(plan.has_api_access(), business_up, "{plan}");
            assert_eq!(plan.may_export_contacts(), business_up, "{plan}");
            assert_eq!(plan.sees_internal_contacts(), business_up, "{plan}");
            assert_eq!(
                plan.team_member_limit(),
                if business_up { None } else { Some(0) }
            );
            let individual_up = business_up || plan == Plan::Individual;
            assert_eq!(plan.sees_rss_primary_contacts(), individual_up, "{plan}");
            assert_eq!(plan.allows_automated_search(), individual_up, "{plan}");
            assert_eq!(plan.is_paid(), individual_up, "{plan}");
            assert_eq!(plan.may_set_page_size(), plan == Plan::Admin, "{plan}");
        }
        assert!(Plan::Free.transcript_formats().is_empty());
        assert_eq!(
            Plan::Individual.transcript_formats(),
            &[TranscriptFormat::Txt]
        );
        for plan in [Plan::Business, Plan::Agency, Plan::Admin] {
            let formats = plan.transcript_formats();
            assert!(formats.contains(&TranscriptFormat::Txt), "{plan}");
            assert!(formats.contains(&TranscriptFormat::Vtt), "{plan}");
        }
    }

    #[test]
    fn extra_podcast_fields_grow_with_the_tier() {
        use PodcastExtraField::*;
        assert!(Plan::Public.podcast_extra_fields().is_empty());
        assert_eq!(
            Plan::Free.podcast_extra_fields(),
            &[Ratings, Castbox, Guests, Socials]
        );
        for plan in [Plan::Individual, Plan::Business, Plan::Agency] {
            let fields = plan.podcast_extra_fields();
            assert!(fields.contains(&AppleId) && fields.contains(&PrimaryContact));
            assert!(fields.contains(&Countries) && !fields.contains(&Genres));
        }
        let admin = Plan::Admin.podcast_extra_fields();
        assert_eq!(admin.len(), PodcastExtraField::ALL.len());
        for pair in Plan::ALL.windows(2) {
            let (lower, higher) = (
                pair[0].podcast_extra_fields(),
                pair[1].podcast_extra_fields(),
            );
            assert!(lower.iter().all(|field| higher.contains(field)), "{pair:?}");
        }
    }

    #[test]
    fn seat_extras_with_named_team_exceptions() {
        let expected = [Some(0), Some(0), Some(1), Some(1), Some(10), None];
        for (plan, seats) in Plan::ALL.iter().zip(expected) {
            assert_eq!(plan.seat_extras(), seats, "{plan}");
        }
        let exceptions: Vec<SeatExtrasException> = ["team-a", "team-b", "team-c"]
            .iter()
            .zip(NAMED_TEAM_SEAT_EXTRAS)
            .map(|(team, seats)| SeatExtrasException {
                team_id: (*team).to_owned(),
                seats,
            })
            .collect();
        assert_eq!(
            Plan::Free.seat_extras_for_team("team-a", &exceptions),
            Some(30)
        );
        assert_eq!(
            Plan::Agency.seat_extras_for_team("team-b", &exceptions),
            Some(3)
        );
        assert_eq!(
            Plan::Individual.seat_extras_for_team("team-c", &exceptions),
            Some(50)
        );
        assert_eq!(
            Plan::Agency.seat_extras_for_team("team-d", &exceptions),
            Some(10)
        );
    }

    #[test]
    fn filters_by_tier() {
        let public = [
            "excludeItunesGenres",
            "includeItunesGenres",
            "excludePodcastIds",
            "explicit",
            "foundedSince",
            "languages",
            "lastEpisodeDateSince",
        ];
        let free_adds = [
            "hasTranscript",
            "includePodcastIds",
            "includeEpisodeIds",
            "minTotalEpisodes",
            "maxTotalEpisodes",
            "minCastboxPlays",
            "minCastboxSubscribers",
            "minItunesRating",
            "minItunesRatingCount",
            "minSpotifyRating",
            "minSpotifyRatingCount",
            "publishedSince",
        ];
        let paid_only = [
            "hasPrimaryContact",
            "podcastCountries",
            "hasSocials",
            "podcastHasGuests",
        ];
        for name in public {
            assert!(
                Plan::ALL.iter().all(|plan| plan.allows_filter(name)),
                "{name}"
            );
        }
        for name in free_adds {
            assert!(!Plan::Public.allows_filter(name), "{name}");
            assert!(Plan::Free.allows_filter(name), "{name}");
        }
        for name in paid_only {
            assert!(!Plan::Free.allows_filter(name), "{name}");
            for paid in [Plan::Individual, Plan::Business, Plan::Agency, Plan::Admin] {
                assert!(paid.allows_filter(name), "{name} {paid}");
            }
        }
        for plan in Plan::ALL.iter().copied() {
            assert_eq!(plan.allows_filter("pageSize"), plan == Plan::Admin);
            assert!(!plan.allows_filter("unknownFilter"));
        }
        // Paid tiers get every filter except the page size.
        for (name, _) in SEARCH_FILTER_TIERS
            .iter()
            .filter(|(name, _)| *name != "pageSize")
        {
            assert!(Plan::Individual.allows_filter(name), "{name}");
        }
    }

    #[test]
    fn pricing_of_section_9() {
        assert_eq!(Plan::Free.price(), Some(PlanPrice::Free));
        assert_eq!(
            Plan::Business.price(),
            Some(PlanPrice::Paid {
                annual: 1000,
                monthly: 100,
                purchase: Purchase::PaymentLink
            })
        );
        assert_eq!(
            Plan::Agency.price(),
            Some(PlanPrice::Paid {
                annual: 5000,
                monthly: 500,
                purchase: Purchase::BookDemo
            })
        );
        assert_eq!(Plan::Admin.price(), None);
        assert_eq!(
            serde_json::to_value(Plan::Agency.price()).unwrap(),
            serde_json::json!({"kind": "paid", "annual": 5000, "monthly": 500, "purchase": "book-demo"})
        );
    }

    #[test]
    fn call_to_action_table() {
        use PricingSituation::*;
        // (plan, situation, expected) as §9 words it.
        let table = [
            (Plan::Free, LoggedOut, Some("create-account")),
            (Plan::Free, SamePlan, Some("try-now")),
            (Plan::Free, Downgrade, Some("manage-account")),
            (Plan::Free, Upgrade, None),
            (Plan::Business, LoggedOut, Some("create-account")),
            (Plan::Business, SamePlan, Some("manage-account")),
            (Plan::Business, Downgrade, Some("manage-account")),
            (Plan::Business, Upgrade, Some("upgrade")),
            (Plan::Agency, LoggedOut, Some("book-demo")),
            (Plan::Agency, Upgrade, Some("book-demo")),
            (Plan::Agency, SamePlan, Some("manage-account")),
            (Plan::Agency, Downgrade, Some("manage-account")),
        ];
        for (plan, situation, expected) in table {
            assert_eq!(
                call_to_action(plan, situation).map(CallToAction::as_str),
                expected,
                "{plan} {situation}"
            );
        }
        assert_eq!(PricingSituation::between(None, Plan::Agency), LoggedOut);
        assert_eq!(
            PricingSituation::between(Some(Plan::Agency), Plan::Business),
            Downgrade
        );
        assert_eq!(
            PricingSituation::between(Some(Plan::Free), Plan::Business),
            Upgrade
        );
        assert_eq!(
            PricingSituation::between(Some(Plan::Business), Plan::Business),
            SamePlan
        );
    }
}
