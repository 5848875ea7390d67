import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { setApiKey } from '@/lib/auth-storage';
import { renderApp, stubApi } from '@/test/render';
import { specSection } from '@/test/spec';

// SPEC §3: chart types and the first categories of the list.
const spec3 = specSection(3);
const CHART_TYPES = spec3.match(/Chart: chartType \(([a-z]+) or ([a-z]+)\)/)!.slice(1);
const CATEGORIES = spec3.match(/Categories: ([^.]+)/)![1].split(', ').slice(0, 3);

type Movement = 'up' | 'down' | 'unchanged' | 'entered' | 'unknown';
const position = (at: number, title: string, movement: Movement, previousPosition: number | null) => ({
  position: at,
  previousPosition,
  positionChange: previousPosition === null ? null : previousPosition - at,
  movement,
  isNew: movement === 'entered',
  podcastOnChart: { podcastOnChartId: `c${at}`, title, creator: null, imageUrl: null },
  podenginePodcast: null,
  history30d: [],
  history30dStatus: [],
  peakPosition30d: at,
  daysCharted30d: 1,
  chartsInWindow30d: 1,
  unknownDays30d: 0,
  estimatedMonthlyListeners: null,
  estimatedMonthlyListenersBucket: null,
});

const chartOf = (url: URL) => ({
  chart: {
    chart: { chartType: url.searchParams.get('chartType'), country: url.searchParams.get('country'), category: url.searchParams.get('category'), chartDate: url.searchParams.get('date') ?? '2026-11-20' },
    positions: [
      position(1, 'Climbing show', 'up', 4),
      position(2, 'Falling show', 'down', 1),
      position(3, 'Brand new show', 'entered', null),
      position(4, 'Steady show', 'unchanged', 4),
      position(5, 'Uncompared show', 'unknown', null),
    ],
  },
  options: {},
});

function stubCharts() {
  return stubApi((url) => {
    const match = url.pathname.match(/^\/api\/v1\/charts\/(apple|spotify)\/(countries|categories)$/);
    if (match) return { body: match[2] === 'countries' ? { countries: ['us', 'gb', 'de'] } : { categories: CATEGORIES } };
    if (url.pathname === '/api/v1/charts/latest' || url.pathname === '/api/v1/charts') return { body: chartOf(url) };
    return undefined;
  });
}

const chartCalls = (calls: ReturnType<typeof stubApi>) =>
  calls.filter((call) => call.url.pathname === '/api/v1/charts/latest' || call.url.pathname === '/api/v1/charts');
const lastChartCall = (calls: ReturnType<typeof stubApi>) => chartCalls(calls).at(-1)!;
const queryOf = (call: { url: URL }) => Object.fromEntries(call.url.searchParams.entries());

beforeEach(() => setApiKey('pl_key'));
afterEach(() => vi.unstubAllGlobals());

describe('the charts page', () => {
  it('turns each control into the query of the chart request', async () => {
    const calls = stubCharts();
    const { router } = renderApp('/app/charts');
    await screen.findByTestId('chart-positions');
    expect(lastChartCall(calls).url.pathname).toBe('/api/v1/charts/latest');
    expect(queryOf(lastChartCall(calls))).toEqual({ chartType: CHART_TYPES[0], country: 'us', category: CATEGORIES[0] });

    const controls = within(screen.getByRole('group', { name: 'Chart' }));
    fireEvent.change(controls.getByRole('combobox', { name: 'Chart' }), { target: { value: CHART_TYPES[1] } });
    await waitFor(() => expect(queryOf(lastChartCall(calls)).chartType).toBe(CHART_TYPES[1]));
    expect(calls.some((call) => call.url.pathname === `/api/v1/charts/${CHART_TYPES[1]}/countries`)).toBe(true);

    await controls.findByRole('option', { name: 'GB' });
    fireEvent.change(controls.getByRole('combobox', { name: 'Country' }), { target: { value: 'gb' } });
    await waitFor(() => expect(queryOf(lastChartCall(calls)).country).toBe('gb'));

    await controls.findByRole('option', { name: CATEGORIES[2] });
    fireEvent.change(controls.getByRole('combobox', { name: 'Category' }), { target: { value: CATEGORIES[2] } });
    await waitFor(() => expect(queryOf(lastChartCall(calls)).category).toBe(CATEGORIES[2]));
    expect(lastChartCall(calls).url.pathname).toBe('/api/v1/charts/latest');

    // A date asks for that day's chart (GET /charts), not the latest one.
    fireEvent.change(controls.getByLabelText('Date'), { target: { value: '2026-11-01' } });
    await waitFor(() => expect(lastChartCall(calls).url.pathname).toBe('/api/v1/charts'));
    expect(queryOf(lastChartCall(calls))).toEqual({ chartType: CHART_TYPES[1], country: 'gb', category: CATEGORIES[2], date: '2026-11-01' });
    expect(router.state.location.search).toBe(`?chartType=${CHART_TYPES[1]}&country=gb&category=${encodeURIComponent(CATEGORIES[2]).replace(/%20/g, '+')}&date=2026-11-01`);
    expect(await screen.findByText('Chart of 2026-11-01')).toBeInTheDocument();
  });

  it('reads the chart from the address', async () => {
    const calls = stubCharts();
    renderApp(`/app/charts?chartType=${CHART_TYPES[1]}&country=de&category=${encodeURIComponent(CATEGORIES[1])}&date=2026-10-05`);
    await screen.findByTestId('chart-positions');
    expect(chartCalls(calls).every((call) => call.url.pathname === '/api/v1/charts')).toBe(true);
    expect(queryOf(lastChartCall(calls))).toEqual({ chartType: CHART_TYPES[1], country: 'de', category: CATEGORIES[1], date: '2026-10-05' });
    expect(screen.getByRole('combobox', { name: 'Country' })).toHaveValue('de');
  });

  it('shows each position with its change: up, down, new, same or not compared', async () => {
    stubCharts();
    renderApp('/app/charts');
    const list = await screen.findByTestId('chart-positions');
    const rows = within(list).getAllByRole('listitem');
    const movementOf = (index: number) => rows[index].querySelector('.movement')!;
    expect(rows).toHaveLength(5);
    expect(movementOf(0)).toHaveTextContent('▲ 3 up');
    expect(movementOf(0)).toHaveClass('movement-up');
    expect(movementOf(1)).toHaveTextContent('▼ 1 down');
    expect(movementOf(1)).toHaveClass('movement-down');
    expect(movementOf(2)).toHaveTextContent('new');
    expect(movementOf(3)).toHaveTextContent('= same');
    // Without an earlier chart to compare with, a show is not called new.
    expect(movementOf(4)).toHaveTextContent('–');
    expect(movementOf(4)).not.toHaveTextContent('new');
  });

  it("shows the server's message when the chart cannot be read", async () => {
    stubApi((url) =>
      url.pathname === '/api/v1/charts/latest' ? { status: 400, body: { status: 'BAD_REQUEST', data: { message: 'Unknown country: zz' } } } : undefined,
    );
    renderApp('/app/charts?country=zz');
    expect(await screen.findByRole('alert')).toHaveTextContent('Unknown country: zz');
  });
});
