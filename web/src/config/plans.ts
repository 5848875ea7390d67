// The plans of SPEC §6 and §9: limits, filters by tier, prices and calls to action.
// The server enforces every limit; the app shows them and locks what the plan lacks.

export const PLAN_TIERS = ['public', 'free', 'individual', 'business', 'agency', 'admin'] as const;
export type PlanTier = (typeof PLAN_TIERS)[number];

export function isPlanTier(value: string): value is PlanTier {
  return (PLAN_TIERS as readonly string[]).includes(value);
}

/** One row of the limits table: the text shown for each tier, as §9 writes it. */
export type LimitRow = { item: string; values: Record<PlanTier, string> };

const row = (item: string, ...values: [string, string, string, string, string, string]): LimitRow => ({
  item,
  values: Object.fromEntries(PLAN_TIERS.map((tier, index) => [tier, values[index]])) as Record<PlanTier, string>,
});

export const LIMIT_ROWS: LimitRow[] = [
  row('Searches', '20/day', '10/day', '300/month', '1000/month', '5000/month', 'unlimited'),
  row('Max results per search', '3', '10', '100', '100', '100', '100'),
  row('AI assist', '-', '3/day', '100/month', '300/month', '1000/month', '1000'),
  row('Alerts', '0', '1', '10', '30', '100', '500'),
  row('Projects (count, podcasts each)', '-', '1, 100', '3, 50', '5, 100', '50, 200', 'unlimited, 1000'),
  row('Automated search (strategies per list / terms per candidate)', '-', 'none', '3/5', '1/5', '10/10', '7/9'),
  row('Advanced contacts per month', '-', '-', '-', '10', '50', 'unlimited'),
  row('Exports per month', '-', '-', '-', '100', '100', 'unlimited'),
  row('Max entries per export', '-', '-', '100', '1000', '1000', '5000'),
  row('Transcript downloads per month', '-', '-', '0', '1000', '2000', '-'),
  row('Transcription requests per month', '-', '-', '100', '500', '2000', '-'),
];

/** Results a search returns at most, per tier. */
export const MAX_RESULTS_PER_SEARCH: Record<PlanTier, number> = {
  public: 3,
  free: 10,
  individual: 100,
  business: 100,
  agency: 100,
  admin: 100,
};

/** Every search filter of the product, in the SDK's wire names. */
export const SEARCH_FILTERS = [
  'excludeItunesGenres',
  'includeItunesGenres',
  'excludePodcastIds',
  'explicit',
  'foundedSince',
  'languages',
  'lastEpisodeDateSince',
  'hasTranscript',
  'includePodcastIds',
  'includeEpisodeIds',
  'minTotalEpisodes',
  'maxTotalEpisodes',
  'minCastboxPlays',
  'minCastboxSubscribers',
  'minItunesRating',
  'minItunesRatingCount',
  'minSpotifyRating',
  'minSpotifyRatingCount',
  'publishedSince',
  'hasPrimaryContact',
  'podcastCountries',
  'hasSocials',
  'podcastHasGuests',
  'pageSize',
] as const;
export type SearchFilterName = (typeof SEARCH_FILTERS)[number];

const PUBLIC_FILTERS: SearchFilterName[] = [
  'excludeItunesGenres',
  'includeItunesGenres',
  'excludePodcastIds',
  'explicit',
  'foundedSince',
  'languages',
  'lastEpisodeDateSince',
];
const FREE_FILTERS: SearchFilterName[] = [
  ...PUBLIC_FILTERS,
  'hasTranscript',
  'includePodcastIds',
  'includeEpisodeIds',
  'minTotalEpisodes',
  'maxTotalEpisodes',
  'minCastboxPlays',
  'minCastboxSubscribers',
  'minItunesRating',
  'minItunesRatingCount',
  'minSpotifyRating',
  'minSpotifyRatingCount',
  'publishedSince',
];
const PAID_FILTERS: SearchFilterName[] = SEARCH_FILTERS.filter((name) => name !== 'pageSize');

/** Which filters each tier may use (SPEC §6): paid tiers get all but page size; only admin sets it. */
export const FILTERS_BY_TIER: Record<PlanTier, readonly SearchFilterName[]> = {
  public: PUBLIC_FILTERS,
  free: FREE_FILTERS,
  individual: PAID_FILTERS,
  business: PAID_FILTERS,
  agency: PAID_FILTERS,
  admin: SEARCH_FILTERS,
};

export function planAllowsFilter(tier: PlanTier, filter: SearchFilterName): boolean {
  return FILTERS_BY_TIER[tier].includes(filter);
}

/** The lowest tier that unlocks a filter, for the upgrade hint. */
export function lowestTierWithFilter(filter: SearchFilterName): PlanTier {
  return PLAN_TIERS.find((tier) => planAllowsFilter(tier, filter)) ?? 'admin';
}

/** Facts of a podcast hit that only some plans see (SPEC §6 "Extra podcast fields":
 * free and above get guests; individual and above also get the primary contact). */
export const PODCAST_FACT_TIERS = { guests: 'free', contact: 'individual' } as const satisfies Record<string, PlanTier>;
export type PodcastFact = keyof typeof PODCAST_FACT_TIERS;

/** Whether `tier` sees `fact` on a podcast. */
export function planSeesFact(tier: PlanTier, fact: PodcastFact): boolean {
  return PLAN_TIERS.indexOf(tier) >= PLAN_TIERS.indexOf(PODCAST_FACT_TIERS[fact]);
}

/** Whether `tier` may export (SPEC §9: "Exports per month" is not "-"). */
export function planExports(tier: PlanTier): boolean {
  const row = LIMIT_ROWS.find((limit) => limit.item === 'Exports per month');
  return row !== undefined && row.values[tier] !== '-';
}

/** The lowest tier that exports, for the upgrade hint. */
export const lowestTierExporting = (): PlanTier => PLAN_TIERS.find(planExports) ?? 'admin';

export type PlanPrice = { monthly: number | null; annual: number | null; paymentLink: boolean };

/** Prices of §9: free has none, business and agency have monthly and annual prices. */
export const PRICING: Partial<Record<PlanTier, PlanPrice>> = {
  free: { monthly: null, annual: null, paymentLink: false },
  business: { monthly: 100, annual: 1000, paymentLink: true },
  agency: { monthly: 500, annual: 5000, paymentLink: false },
};

export const PRICED_PLANS = ['free', 'business', 'agency'] as const satisfies readonly PlanTier[];
export type PricedPlan = (typeof PRICED_PLANS)[number];

export type CallToAction = 'create-account' | 'try-now' | 'manage-account' | 'upgrade' | 'book-demo';

export const CALL_TO_ACTION_LABELS: Record<CallToAction, string> = {
  'create-account': 'Create account',
  'try-now': 'Try now',
  'manage-account': 'Manage account',
  upgrade: 'Upgrade',
  'book-demo': 'Book a demo',
};

const tierRank = (tier: PlanTier) => PLAN_TIERS.indexOf(tier);

/**
 * The call to action of a pricing card (SPEC §9) for a visitor on `current`
 * (`public` when signed out) looking at `plan`.
 */
export function callToAction(plan: PricedPlan, current: PlanTier): CallToAction {
  const situation =
    current === 'public'
      ? 'logged-out'
      : current === plan
        ? 'same'
        : tierRank(current) > tierRank(plan)
          ? 'downgrade'
          : 'upgrade';
  switch (plan) {
    case 'free':
      return situation === 'logged-out' ? 'create-account' : situation === 'same' ? 'try-now' : 'manage-account';
    case 'business':
      return situation === 'logged-out' ? 'create-account' : situation === 'upgrade' ? 'upgrade' : 'manage-account';
    case 'agency':
      return situation === 'logged-out' || situation === 'upgrade' ? 'book-demo' : 'manage-account';
  }
}

export const PLAN_DESCRIPTIONS: Record<PlanTier, string> = {
  public: 'Not signed in',
  free: 'Basic podcast search and alerts',
  individual: 'For podcast guests and independent researchers',
  business: 'For brands and in-house teams',
  agency: 'For multi-client agencies',
  admin: 'Internal',
};
