// Every chart of the app goes through these components. The chart library is loaded when
// a chart first comes near the screen, so pages without charts never download it and a
// page whose charts sit further down shows its content first; until the chart is drawn,
// its place is held by a box of its final size.

import { lazy, Suspense, useEffect, useRef, useState, type ComponentType, type RefObject } from 'react';

import type { BarChartProps as DrawnBarChartProps, LineChartProps as DrawnLineChartProps } from './recharts-charts';

export type Datum = Record<string, string | number | null>;

export type Series = { key: string; label: string; color?: string };

const DEFAULT_HEIGHT = 280;
/** How far from the screen a chart starts loading, so it is usually drawn when seen. */
const AHEAD = '600px 0px';

const drawing = () => import('./recharts-charts');
const DrawnBarChart = lazy(() => drawing().then((module) => ({ default: module.BarChart })));
const DrawnLineChart = lazy(() => drawing().then((module) => ({ default: module.LineChart })));

type Sized<P extends { height: number }> = Omit<P, 'height'> & { height?: number };

export type BarChartProps = Sized<DrawnBarChartProps>;
export type LineChartProps = Sized<DrawnLineChartProps>;

/** A drawn chart's place: held by the placeholder until it comes near the screen and
 * while the chart library loads. */
function DrawnWhenNear<P extends { label: string; height: number }>({ Drawn, props }: { Drawn: ComponentType<P>; props: P }) {
  const [place, near] = useNearScreen();
  const placeholder = <ChartPlaceholder label={props.label} height={props.height} place={place} />;
  if (!near) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <Drawn {...props} />
    </Suspense>
  );
}

/** A bar chart with an accessible description of what it shows. */
export function BarChart({ height = DEFAULT_HEIGHT, ...props }: BarChartProps) {
  return <DrawnWhenNear Drawn={DrawnBarChart} props={{ ...props, height } as DrawnBarChartProps} />;
}

/** A line chart with an accessible description of what it shows. */
export function LineChart({ height = DEFAULT_HEIGHT, ...props }: LineChartProps) {
  return <DrawnWhenNear Drawn={DrawnLineChart} props={{ ...props, height } as DrawnLineChartProps} />;
}

/** Whether the element `place` holds has come near the screen (at once where this cannot be told). */
function useNearScreen(): [RefObject<HTMLElement | null>, boolean] {
  const place = useRef<HTMLElement | null>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = place.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: AHEAD },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  return [place, near];
}

function ChartPlaceholder({ label, height, place }: { label: string; height: number; place: RefObject<HTMLElement | null> }) {
  return (
    <figure className="chart" aria-label={label} aria-busy="true" ref={place}>
      <div className="chart-loading" style={{ height }}>
        Loading chart…
      </div>
    </figure>
  );
}
