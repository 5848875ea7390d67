// Friendly names for the wire shapes. They are generated (`npm run gen:api`) from the
// server's OpenAPI document (web/openapi.json), whose bodies are the Pod Engine SDK's models
// (the API's wire contract), into api-schema.d.ts; nothing here is written by hand but the names.

import type { components } from './api-schema';

type S = components['schemas'];

export type PodcastSummary = S['GetLatestEpisodesResponseLatestPodcastsItemPodcast'];
export type Podcast = S['GetMultiplePodcastsResponsePodcastsItemVariant2'];
export type AuthorityScore = S['GetChartResponseChartPositionsItemPodenginePodcastAuthorityScore'];
export type AuthorityScoreDetails = S['AuthorityScoreDetails'];
export type Episode = S['GetLatestEpisodesResponseLatestPodcastsItemEpisodesItem'];
export type PodcastWithEpisodes = S['GetLatestEpisodesResponseLatestPodcastsItem'];

export type GetLatestEpisodesResponse = S['GetLatestEpisodesResponse'];
export type GetPodcastResponse = S['GetPodcastResponse'];
export type GetPodcastEpisodesResponse = S['GetPodcastEpisodesResponse'];
export type GetPodcastReviewsResponse = S['GetPodcastReviewsResponse'];
export type GetPodcastContactsResponse = S['GetPodcastContactsResponse'];
export type GetPodcastRelatedPodcastsResponse = S['GetPodcastRelatedPodcastsResponse'];
export type GetPodcastSocialMediaDetailsResponse = S['GetPodcastSocialMediaDetailsResponse'];
export type GetPodcastChartsResponse = S['GetPodcastChartsResponse'];
export type GetPodcastGuestsResponse = S['GetPodcastGuestsResponse'];
export type GetLatestPodcastsResponse = S['GetLatestPodcastsResponse'];
export type GetEpisodeDetailsByIdResponse = S['GetEpisodeDetailsByIdResponse'];
export type GetEpisodeTranscriptTextResponse = S['GetEpisodeTranscriptTextResponse'];
export type GetRssStatsPodcast2Response = S['GetRssStatsPodcast2Response'];
export type FieldFrequency = S['GetRssStatsPodcast2ResponsePodcast2StatsPodcastLevelStatsFieldFrequencyItem'];
export type SearchAutocompletePodcastsResponse = S['SearchAutocompletePodcastsResponse'];
export type GetCurrentUsageResponse = S['GetCurrentResponse'];
export type GetDailyUsageResponse = S['GetDailyResponse'];
export type GetMonthlyUsageResponse = S['GetMonthlyResponse'];
export type GetProjectsResponse = S['GetProjectsResponse'];
export type ProjectListItem = S['GetProjectsResponseProjectsItem'];
export type GetProjectDetailsResponse = S['GetProjectDetailsResponse'];
export type GetChartResponse = S['GetChartResponse'];
export type GetLatestChartResponse = S['GetLatestChartResponse'];
export type GetCategoriesByChartTypeResponse = S['GetCategoriesByChartTypeResponse'];
export type GetAvailableCountriesByChartTypeResponse = S['GetAvailableCountriesByChartTypeResponse'];
export type GetTeamPodcastsResponse = S['GetTeamPodcastsResponse'];
export type GetTranscriptionRequestsResponse = S['GetTranscriptionRequestsResponse'];
export type GetAlertConfigsResponse = S['GetAlertConfigsResponse'];

/** The body of POST /search/podcasts (podcast targets only). */
export type PodcastSearchOptions = S['AskAgentProjectPodcastRelevancySearchOptionsVariant1'];
/** The body of POST /search/episodes (every target, episode filters). */
export type EpisodeSearchOptions = S['AskAgentProjectPodcastRelevancySearchOptionsVariant2'];
export type SearchTerm = S['AskAgentProjectPodcastRelevancySearchOptionsVariant2SearchTermsItem'];
export type SearchTarget = SearchTerm['searchTargets'][number];
export type MatchMode = SearchTerm['searchTermOptions']['matchMode'];
export type SortOrderItem = S['AskAgentProjectPodcastRelevancySearchOptionsVariant2SortOrderItem'];
/** Every sort of a podcast search; episode searches take a subset (see SORT_FIELDS). */
export type SortField = S['AskAgentProjectPodcastRelevancySearchOptionsVariant1SortOrderItem']['field'];

export type SearchPodcastsResponse = S['SearchPodcastsResponse'];
export type SearchEpisodesResponse = S['SearchEpisodesResponse'];
export type PodcastHit = S['SearchPodcastsResponseResultHitsItem'];
export type EpisodeHit = S['SearchEpisodesResponseResultHitsItem'];
export type GetPodcastChartPresenceResponse = S['GetPodcastChartPresenceResponse'];
export type ChartPresence = S['GetPodcastChartPresenceResponsePresenceChartsItem'];
export type GetPodcastChartHistoryResponse = S['GetPodcastChartHistoryResponse'];
export type GetRequestHistoryResponse = S['GetTranscriptionRequestsResponse'];
export type GetMembersUsageResponse = S['GetMembersResponse'];
export type TeamPodcast = S['GetTeamPodcastsResponseTeamPodcastsItem'];
export type SessionInfo = S['SessionInfo'];

// Podlens routes outside the SDK, described by the server's own types.
export type OutreachOptions = S['OutreachOptions'];
export type OutreachHistoryEntry = S['OutreachHistoryEntry'];
export type OutreachDetails = S['OutreachDetails'];
export type OutreachHistoryResponse = S['HistoryResponse'];
export type OutreachResponse = S['OutreachResponse'];
export type OutreachTemplatesResponse = S['OutreachTemplatesResponse'];
export type OutreachTemplateItem = S['OutreachTemplateItem'];
export type OutreachTemplateResponse = S['OutreachTemplateResponse'];
export type ApiKeyInfo = S['ApiKeyInfo'];
export type ApiKeysResponse = S['ApiKeysResponse'];
export type CreatedApiKey = S['CreatedApiKey'];
export type RevokedApiKey = S['RevokedApiKey'];
