import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { BarChart } from './charts';

const drawing = vi.hoisted(() => ({ loaded: false }));
vi.mock('./recharts-charts', () => {
  drawing.loaded = true;
  return {
    BarChart: ({ label, height }: { label: string; height: number }) => <p>{`${label} drawn ${height} px high`}</p>,
    LineChart: () => null,
  };
});

/** An IntersectionObserver the test moves things into view with. */
class Screen {
  static observers: Screen[] = [];
  elements: Element[] = [];
  constructor(private readonly callback: IntersectionObserverCallback) {
    Screen.observers.push(this);
  }
  observe(element: Element) {
    this.elements.push(element);
  }
  disconnect() {
    this.elements = [];
  }
  static scrollIntoView() {
    for (const observer of Screen.observers) {
      const entries = observer.elements.map((target) => ({ target, isIntersecting: true }) as IntersectionObserverEntry);
      if (entries.length) observer.callback(entries, observer as unknown as IntersectionObserver);
    }
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  Screen.observers = [];
});

describe('a chart', () => {
  it('loads the chart library only when it comes near the screen, holding its place meanwhile', async () => {
    vi.stubGlobal('IntersectionObserver', Screen);
    render(<BarChart label="Ratings by stars" height={160} categoryKey="stars" series={[{ key: 'count', label: 'Ratings' }]} data={[{ stars: '5★', count: 3 }]} />);
    const place = screen.getByRole('figure', { name: 'Ratings by stars' });
    expect(place).toHaveTextContent('Loading chart…');
    expect(place.querySelector('.chart-loading')).toHaveStyle({ height: '160px' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(drawing.loaded).toBe(false);

    act(() => Screen.scrollIntoView());
    expect(await screen.findByText('Ratings by stars drawn 160 px high')).toBeInTheDocument();
    expect(drawing.loaded).toBe(true);
  });
});
