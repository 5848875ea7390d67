// recharts, wrapped once: the charts `./charts` loads when a page first draws one.

import {
  Bar,
  BarChart as RechartsBarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart as RechartsLineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';

import type { Datum, Series } from './charts';

export const CHART_COLORS = ['#2b59c3', '#e07a1f', '#2a9d6f', '#b8336a', '#6c4ab6', '#8a8d91'];

export type BarChartProps = {
  data: Datum[];
  categoryKey: string;
  series: Series[];
  /** Horizontal bars read better with long category labels. */
  layout?: 'horizontal' | 'vertical';
  height: number;
  valueFormatter?: (value: number) => string;
  domain?: [number, number];
  label: string;
};

/** A bar chart with an accessible description of what it shows. */
export function BarChart({
  data,
  categoryKey,
  series,
  layout = 'horizontal',
  height,
  valueFormatter,
  domain,
  label,
}: BarChartProps) {
  const vertical = layout === 'vertical';
  return (
    <figure className="chart" aria-label={label}>
      <ResponsiveContainer width="100%" height={height}>
        <RechartsBarChart data={data} layout={vertical ? 'vertical' : 'horizontal'} margin={{ left: 8, right: 16 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e3e6ea" />
          {vertical ? (
            <>
              <XAxis type="number" domain={domain} tickFormatter={valueFormatter} />
              <YAxis type="category" dataKey={categoryKey} width={150} tick={{ fontSize: 12 }} />
            </>
          ) : (
            <>
              <XAxis dataKey={categoryKey} tick={{ fontSize: 12 }} />
              <YAxis domain={domain} tickFormatter={valueFormatter} />
            </>
          )}
          <Tooltip formatter={(value) => (valueFormatter && typeof value === 'number' ? valueFormatter(value) : value)} />
          {series.length > 1 ? <Legend /> : null}
          {series.map((item, index) => (
            <Bar
              key={item.key}
              dataKey={item.key}
              name={item.label}
              fill={item.color ?? CHART_COLORS[index % CHART_COLORS.length]}
              radius={2}
              isAnimationActive={false}
            />
          ))}
        </RechartsBarChart>
      </ResponsiveContainer>
      <figcaption className="visually-hidden">{label}</figcaption>
    </figure>
  );
}

export type LineChartProps = {
  data: Datum[];
  xKey: string;
  series: Series[];
  height: number;
  /** Chart positions read top-down: position 1 at the top. */
  reversed?: boolean;
  label: string;
};

export function LineChart({ data, xKey, series, height, reversed = false, label }: LineChartProps) {
  return (
    <figure className="chart" aria-label={label}>
      <ResponsiveContainer width="100%" height={height}>
        <RechartsLineChart data={data} margin={{ left: 8, right: 16 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e3e6ea" />
          <XAxis dataKey={xKey} tick={{ fontSize: 12 }} />
          <YAxis reversed={reversed} allowDecimals={false} domain={reversed ? [1, 'auto'] : undefined} />
          <Tooltip />
          {series.length > 1 ? <Legend /> : null}
          {series.map((item, index) => (
            <Line
              key={item.key}
              type="monotone"
              dataKey={item.key}
              name={item.label}
              stroke={item.color ?? CHART_COLORS[index % CHART_COLORS.length]}
              strokeWidth={2}
              dot={data.length < 40}
              connectNulls
              isAnimationActive={false}
            />
          ))}
        </RechartsLineChart>
      </ResponsiveContainer>
      <figcaption className="visually-hidden">{label}</figcaption>
    </figure>
  );
}
