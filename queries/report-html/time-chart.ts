// A time chart as inline SVG, one point per bucket (a minute, or less for a short window: chart-bucket.ts): lines
// (broken where a bucket has no value) or stacked bars (one column per bucket). Pure: spec in, markup out. Every
// series is a `<g data-series>` and every point or bar carries `data-t` (Unix s, bucket start) and `data-v`, so readers and tests can check the drawing
// against the data; a `<title>` on each gives the exact value on hover without any script.
import { esc, fmt } from './html.js';
import { formatDate, formatDateMinute, formatInstant, formatMinute } from './time-format.js';
import { timeTicks } from './ticks.js';
import { type Band, valueAxis } from './value-axis.js';

export interface Point { t: number; v: number }
export interface TimeSeries {
  name: string;
  color: string;
  points: readonly Point[];
  dashed?: boolean;
  /** Drawn thicker, for a total among its parts. */
  strong?: boolean;
}
/** A horizontal background band, e.g. an APDEX rating range. */
export type { Band } from './value-axis.js';

export interface TimeChartSpec {
  id: string;
  title: string;
  kind: 'lines' | 'stacked-bars';
  series: readonly TimeSeries[];
  /** The time axis, Unix s; whole buckets, shared by all charts of a page so they line up. */
  domain: { from: number; to: number };
  /** Seconds one point stands for (its bar's width, the longest step a line joins); default a minute. */
  bucket?: number;
  timeZone: string;
  yTitle: string;
  /** A fixed top of the value axis (1 for APDEX, 100 for %); otherwise from the data. */
  yMax?: number;
  bands?: readonly Band[];
  digits?: number;
  /** Values are counts: axis steps of whole numbers. */
  integer?: boolean;
  note?: string;
}

const W = 960;
const H = 300;
const M = { l: 64, r: 30, t: 14, b: 46 };
const PW = W - M.l - M.r;
const PH = H - M.t - M.b;
const MINUTE = 60;
const BAR_MAX = 48;

export function timeChart(spec: TimeChartSpec): string {
  const caption = `<figcaption>${esc(spec.title)}</figcaption>`;
  const note = spec.note ? `<p class="note">${esc(spec.note)}</p>` : '';
  if (spec.series.every((s) => s.points.length === 0)) {
    return `<figure class="chart empty" data-chart="${esc(spec.id)}" data-empty="true">${caption}<p class="empty">No data in this window.</p>${note}</figure>`;
  }
  const { from, to } = spec.domain;
  const bucket = spec.bucket ?? MINUTE;
  const x = (t: number): number => M.l + ((t - from) / Math.max(to - from, bucket)) * PW;
  const stacks = new Map<number, number>();
  if (spec.kind === 'stacked-bars') for (const s of spec.series) for (const p of s.points) stacks.set(p.t, (stacks.get(p.t) ?? 0) + p.v);
  const dataMax = spec.kind === 'stacked-bars' ? Math.max(0, ...stacks.values()) : Math.max(0, ...spec.series.flatMap((s) => s.points.map((p) => p.v)));
  const digits = spec.digits ?? 3;
  const { y, bands, grid } = valueAxis({ left: M.l, top: M.t, width: PW, height: PH }, { max: spec.yMax ?? dataMax, digits, integer: spec.integer ?? false, bands: spec.bands });
  const r = (n: number): string => n.toFixed(1);

  let lastDate = '';
  const xAxis = timeTicks(from, to, spec.timeZone).map((t) => {
    const date = formatDate(t * 1000, spec.timeZone);
    const withDate = date !== lastDate;
    lastDate = date;
    return `<line x1="${r(x(t))}" x2="${r(x(t))}" y1="${M.t + PH}" y2="${M.t + PH + 5}"/>`
      + `<text x="${r(x(t))}" y="${M.t + PH + 18}" text-anchor="middle">${formatMinute(t * 1000, spec.timeZone)}</text>`
      + (withDate ? `<text class="date" x="${r(x(t))}" y="${M.t + PH + 32}" text-anchor="middle">${date}</text>` : '');
  }).join('');
  // A point shorter than a minute is named to the second.
  const when = (t: number): string => (bucket % MINUTE === 0 ? formatDateMinute(t * 1000, spec.timeZone) : formatInstant(t * 1000, spec.timeZone));
  const tip = (s: TimeSeries, p: Point): string => `<title>${esc(s.name)} · ${when(p.t)} · ${esc(fmt(p.v, digits))}</title>`;

  const base = new Map<number, number>();
  const series = spec.series.map((s) => {
    const points = [...s.points].sort((a, b) => a.t - b.t);
    const attrs = `class="series" data-series="${esc(s.name)}" data-color="${s.color}"`;
    if (spec.kind === 'stacked-bars') {
      // A bar fills its bucket, less a 1 px gap, but stays a bar in a window of a few buckets (at most BAR_MAX wide).
      const bucketPx = x(from + bucket) - x(from);
      const width = Math.max(Math.min(bucketPx - (bucketPx >= 4 ? 1 : 0), BAR_MAX), 0.6);
      const inset = (bucketPx - width) / 2;
      const bars = points.filter((p) => p.v > 0).map((p) => {
        const below = base.get(p.t) ?? 0;
        base.set(p.t, below + p.v);
        return `<rect class="bar" data-t="${p.t}" data-v="${p.v}" x="${r(x(p.t) + inset)}" y="${r(y(below + p.v))}" width="${r(width)}" height="${r(y(below) - y(below + p.v))}" fill="${s.color}">${tip(s, p)}</rect>`;
      });
      return `<g ${attrs}>${bars.join('')}</g>`;
    }
    // A line joins consecutive buckets only: a bucket without a value is a gap, not a straight line across it.
    const runs: Point[][] = [];
    for (const p of points) {
      const run = runs[runs.length - 1];
      const prev = run?.[run.length - 1];
      if (run !== undefined && prev !== undefined && p.t - prev.t <= bucket) run.push(p);
      else runs.push([p]);
    }
    const cx = (p: Point): string => r(x(p.t + bucket / 2));
    const width = s.strong ? 3 : 2;
    const dash = s.dashed ? ' stroke-dasharray="6 4"' : '';
    const paths = runs.filter((run) => run.length > 1).map((run) => `<path d="${run.map((p, i) => `${i === 0 ? 'M' : 'L'}${cx(p)} ${r(y(p.v))}`).join(' ')}" fill="none" stroke="${s.color}" stroke-width="${width}"${dash}/>`);
    const dots = points.map((p) => `<circle class="point" data-t="${p.t}" data-v="${p.v}" cx="${cx(p)}" cy="${r(y(p.v))}" r="${s.strong ? 4 : 3.5}" fill="${s.color}">${tip(s, p)}</circle>`);
    return `<g ${attrs}>${paths.join('')}${dots.join('')}</g>`;
  });

  const legend = `<ul class="legend">${spec.series.map((s) => `<li><span class="swatch${s.dashed ? ' dashed' : ''}" style="--c:${s.color}"></span>${esc(s.name)}</li>`).join('')}</ul>`;
  return `<figure class="chart" data-chart="${esc(spec.id)}" data-kind="${spec.kind}">${caption}
<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(spec.title)}" xmlns="http://www.w3.org/2000/svg">
<g class="bands">${bands}</g><g class="grid">${grid}</g><g class="x-axis">${xAxis}</g>
<rect class="plot-area" x="${M.l}" y="${M.t}" width="${PW}" height="${PH}" fill="none"/>
<text class="axis-title" transform="translate(14 ${M.t + PH / 2}) rotate(-90)" text-anchor="middle">${esc(spec.yTitle)}</text>
${series.join('\n')}
</svg>${legend}${note}</figure>`;
}
