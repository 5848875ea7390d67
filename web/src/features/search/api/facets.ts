import { queryOptions, useQuery } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api-client';

export type FacetCount = { value: string; count: number };
export type SearchFacets = { languages: FacetCount[]; genres: FacetCount[] };

/** GET /search/facets (public): the catalog's languages and genres, each with its podcast count, most first. */
export const getSearchFacets = (signal?: AbortSignal) => apiRequest<SearchFacets>('/search/facets', { signal });

export const searchFacetsQueryOptions = () =>
  queryOptions({ queryKey: ['search', 'facets'], queryFn: ({ signal }) => getSearchFacets(signal), retry: false, staleTime: 10 * 60_000 });

export const useSearchFacets = () => useQuery(searchFacetsQueryOptions());
