import { queryOptions, useQuery } from '@tanstack/react-query';

import { call } from '@/lib/api-client';

export const CHART_TYPES = ['apple', 'spotify'] as const;
export type ChartType = (typeof CHART_TYPES)[number];

export type ChartQuery = { chartType: ChartType; country: string; category: string; date?: string };

/** GET /charts/{chartType}/countries */
export const getChartCountries = (chartType: ChartType, signal?: AbortSignal) =>
  call('get', '/charts/{chartType}/countries', { path: { chartType }, signal });

/** GET /charts/{chartType}/categories */
export const getChartCategories = (chartType: ChartType, signal?: AbortSignal) =>
  call('get', '/charts/{chartType}/categories', { path: { chartType }, signal });

/** GET /charts/latest, or GET /charts with a date. */
export const getChart = (query: ChartQuery, signal?: AbortSignal) =>
  query.date ? call('get', '/charts', { query, signal }) : call('get', '/charts/latest', { query, signal });

export const chartCountriesQueryOptions = (chartType: ChartType) =>
  queryOptions({ queryKey: ['charts', chartType, 'countries'], queryFn: ({ signal }) => getChartCountries(chartType, signal), retry: false });

export const chartCategoriesQueryOptions = (chartType: ChartType) =>
  queryOptions({ queryKey: ['charts', chartType, 'categories'], queryFn: ({ signal }) => getChartCategories(chartType, signal), retry: false });

export const chartQueryOptions = (query: ChartQuery) =>
  queryOptions({ queryKey: ['charts', query], queryFn: ({ signal }) => getChart(query, signal), retry: false });

export const useChartCountries = (chartType: ChartType) => useQuery(chartCountriesQueryOptions(chartType));
export const useChartCategories = (chartType: ChartType) => useQuery(chartCategoriesQueryOptions(chartType));
export const useChart = (query: ChartQuery) => useQuery(chartQueryOptions(query));
