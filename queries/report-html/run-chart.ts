// A chart of one value per run, runs in order along the x axis (not time: runs a week apart sit side by side), as
// inline SVG lines with a horizontal mark such as the APDEX pass mark. Pure: spec in, markup out. Every series is a
// `<g data-series>` and every point carries `data-run` (its position, 0 = oldest) and `data-v`, with a `<title>`
// giving the run and the exact value on hover.
import { clip, esc, fmt } from './html.js';
import { type Band, valueAxis } from './value-axis.js';

export interface RunSeries {
  name: string;
  color: string;
  /** One value per run, in the order of `runs`; null is a gap (the run has no value). */
  values: ReadonlyArray<number | null>;
  dashed?: boolean;
  strong?: boolean;
}

/** A horizontal line across the plot at `value`, e.g. the pass mark. */
export interface Mark { value: number; label: string; color: string }

export interface RunChartSpec {
  id: string;
  title: string;
  runs: readonly string[];
  series: readonly RunSeries[];
  yTitle: string;
  yMax?: number;
  bands?: readonly Band[];
  marks?: readonly Mark[];
  digits?: number;
  note?: string;
}

const W = 960;
const H = 320;
/**
 * Run names stand level under their point up to this many runs; more are turned to read upwards (31 runs leave
 * 27 px each), which keeps the first name inside the figure where a slant would run off its left edge.
 */
const LEVEL_RUNS = 10;
const LABEL_CHARS = 18;

export function runChart(spec: RunChartSpec): string {
  const caption = `<figcaption>${esc(spec.title)}</figcaption>`;
  const note = spec.note ? `<p class="note">${esc(spec.note)}</p>` : '';
  if (spec.runs.length === 0 || spec.series.every((s) => s.values.every((v) => v === null))) {
    return `<figure class="chart empty" data-chart="${esc(spec.id)}" data-empty="true">${caption}<p class="empty">No runs with a value.</p>${note}</figure>`;
  }
  const turned = spec.runs.length > LEVEL_RUNS;
  const M = { l: 64, r: 30, t: 14, b: turned ? 130 : 46 };
  const PW = W - M.l - M.r;
  const PH = H - M.t - M.b;
  const step = PW / spec.runs.length;
  const x = (i: number): number => M.l + (i + 0.5) * step;
  const dataMax = Math.max(0, ...spec.series.flatMap((s) => s.values.map((v) => v ?? 0)), ...(spec.marks ?? []).map((m) => m.value));
  const digits = spec.digits ?? 3;
  const { y, bands, grid } = valueAxis({ left: M.l, top: M.t, width: PW, height: PH }, { max: spec.yMax ?? dataMax, digits, bands: spec.bands });
  const r = (n: number): string => n.toFixed(1);

  const xAxis = spec.runs.map((name, i) => {
    const label = `<title>${esc(name)}</title>${esc(clip(name, LABEL_CHARS))}`;
    const text = turned
      ? `<text x="${r(x(i) + 4)}" y="${M.t + PH + 10}" text-anchor="end" transform="rotate(-90 ${r(x(i) + 4)} ${M.t + PH + 10})">${label}</text>`
      : `<text x="${r(x(i))}" y="${M.t + PH + 18}" text-anchor="middle">${label}</text>`;
    return `<line x1="${r(x(i))}" x2="${r(x(i))}" y1="${M.t + PH}" y2="${M.t + PH + 5}"/>${text}`;
  }).join('');
  const marks = (spec.marks ?? []).map((m) => `<g class="mark" data-mark="${esc(m.label)}" data-v="${m.value}">`
    + `<line x1="${M.l}" x2="${M.l + PW}" y1="${r(y(m.value))}" y2="${r(y(m.value))}" stroke="${m.color}" stroke-width="2" stroke-dasharray="8 4"/>`
    + `<text class="mark-label" x="${M.l + 4}" y="${r(y(m.value) - 5)}" style="fill:${m.color}">${esc(m.label)}</text></g>`).join('');

  const series = spec.series.map((s) => {
    const attrs = `class="series" data-series="${esc(s.name)}" data-color="${s.color}"`;
    // A line joins neighbouring runs that both have a value: a run without one is a gap, not a line across it.
    const segments: Array<Array<[number, number]>> = [];
    s.values.forEach((v, i) => {
      if (v === null) return;
      const last = segments[segments.length - 1];
      const prev = last?.[last.length - 1];
      if (last !== undefined && prev !== undefined && prev[0] === i - 1) last.push([i, v]);
      else segments.push([[i, v]]);
    });
    const dash = s.dashed ? ' stroke-dasharray="6 4"' : '';
    const paths = segments.filter((g) => g.length > 1).map((g) => `<path d="${g.map(([i, v], k) => `${k === 0 ? 'M' : 'L'}${r(x(i))} ${r(y(v))}`).join(' ')}" fill="none" stroke="${s.color}" stroke-width="${s.strong ? 3 : 2}"${dash}/>`);
    const dots = segments.flat().map(([i, v]) => `<circle class="point" data-run="${i}" data-v="${v}" cx="${r(x(i))}" cy="${r(y(v))}" r="${s.strong ? 4.5 : 3.5}" fill="${s.color}">`
      + `<title>${esc(spec.runs[i] ?? '')} · ${esc(s.name)} · ${esc(fmt(v, digits))}</title></circle>`);
    return `<g ${attrs}>${paths.join('')}${dots.join('')}</g>`;
  });

  const legend = `<ul class="legend">${spec.series.map((s) => `<li><span class="swatch${s.dashed ? ' dashed' : ''}" style="--c:${s.color}"></span>${esc(s.name)}</li>`).join('')}`
    + `${(spec.marks ?? []).map((m) => `<li><span class="swatch dashed" style="--c:${m.color}"></span>${esc(m.label)}</li>`).join('')}</ul>`;
  return `<figure class="chart" data-chart="${esc(spec.id)}" data-kind="runs">${caption}
<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(spec.title)}" xmlns="http://www.w3.org/2000/svg">
<g class="bands">${bands}</g><g class="grid">${grid}</g><g class="x-axis">${xAxis}</g>
<rect class="plot-area" x="${M.l}" y="${M.t}" width="${PW}" height="${PH}" fill="none"/>
<text class="axis-title" transform="translate(14 ${M.t + PH / 2}) rotate(-90)" text-anchor="middle">${esc(spec.yTitle)}</text>
${marks}
${series.join('\n')}
</svg>${legend}${note}</figure>`;
}
