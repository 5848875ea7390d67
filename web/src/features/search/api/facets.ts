import { queryOptions, useQuery } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api-client';

export type FacetCount = { value: string; count: number };
/** `semanticSearch`: whether the index has its vectors (searches hybrid, semantic search
 * answering); false while they are still being built. */
export type SearchFacets = { languages: FacetCount[]; genres: FacetCount[]; semanticSearch?: boolean };

/** GET /search/facets (public): the catalog's languages and genres, each with its podcast count, most first. */
export const getSearchFacets = (signal?: AbortSignal) => apiRequest<SearchFacets>('/search/facets', { signal });

export const searchFacetsQueryOptions = () =>
  queryOptions({ queryKey: ['search', 'facets'], queryFn: ({ signal }) => getSearchFacets(signal), retry: false, staleTime: 10 * 60_000 });

export const useSearchFacets = () => useQuery(searchFacetsQueryOptions());

/** How often a page asks again while the server's vectors are still being built. */
export const SEMANTIC_CHECK_MS = 10_000;

/** Whether searches are hybrid (true), keyword-only while the vectors are built (false), or
 * not known yet (undefined); asked again every few seconds while keyword-only. */
export function useSemanticSearch(): boolean | undefined {
  const facets = useQuery({
    ...searchFacetsQueryOptions(),
    refetchInterval: (query) => (query.state.data?.semanticSearch === false ? SEMANTIC_CHECK_MS : false),
  });
  return facets.data?.semanticSearch;
}
