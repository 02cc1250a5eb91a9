// A horizontal bar chart as inline SVG: one row per item (a lock space, a key operation), one bar per series in
// the row (one run, or two runs side by side). Pure: spec in, markup out; each bar carries `data-label`,
// `data-series` and `data-v` for readers and tests, and a `<title>` with the exact value.
import { clip, esc, fmt } from './html.js';
import { valueTicks } from './ticks.js';

export interface BarRow {
  label: string;
  /** One value per series; null draws no bar (the item is absent from that series). */
  values: ReadonlyArray<number | null>;
  /** Extra words for the hover text, e.g. "12 waits, longest 3.2 s". */
  hint?: string;
}

export interface BarChartSpec {
  id: string;
  title: string;
  series: ReadonlyArray<{ name: string; color: string }>;
  rows: readonly BarRow[];
  /** Unit shown after values and under the axis, e.g. "s". */
  unit: string;
  xMax?: number;
  digits?: number;
  note?: string;
  /** One bar per row made of the series' parts end to end (a whole and its split), the total written after it. */
  stacked?: boolean;
}

const W = 960;
const LABEL_W = 350;
const VALUE_W = 90;
const PW = W - LABEL_W - VALUE_W;
const BAR_H = 16;
const AXIS_H = 36;
/** Label length that fits LABEL_W at the page's 12 px font; the whole label is in the hover text. */
const LABEL_CHARS = 44;

export function barChart(spec: BarChartSpec): string {
  const caption = `<figcaption>${esc(spec.title)}</figcaption>`;
  const note = spec.note ? `<p class="note">${esc(spec.note)}</p>` : '';
  if (spec.rows.length === 0) return `<figure class="chart empty" data-chart="${esc(spec.id)}" data-empty="true">${caption}<p class="empty">No data in this window.</p>${note}</figure>`;
  const digits = spec.digits ?? 3;
  const unit = spec.unit ? ` ${spec.unit}` : '';
  const lanes = spec.stacked ? 1 : spec.series.length;
  const rowH = lanes * BAR_H + 10;
  const height = spec.rows.length * rowH + AXIS_H;
  const total = (row: BarRow): number => row.values.reduce<number>((a, v) => a + (v ?? 0), 0);
  const ticks = valueTicks(spec.xMax ?? Math.max(0, ...spec.rows.flatMap((row) => (spec.stacked ? [total(row)] : row.values.map((v) => v ?? 0)))));
  const top = ticks[ticks.length - 1] as number;
  const x = (v: number): number => LABEL_W + (Math.min(v, top) / top) * PW;
  const r = (n: number): string => n.toFixed(1);
  const plotBottom = spec.rows.length * rowH;
  const grid = ticks.map((v) => `<line x1="${r(x(v))}" x2="${r(x(v))}" y1="0" y2="${plotBottom}"/><text x="${r(x(v))}" y="${plotBottom + 16}" text-anchor="middle">${esc(fmt(v, digits))}</text>`).join('');
  const rows = spec.rows.map((row, i) => {
    const y0 = i * rowH + 5;
    const label = `<text class="bar-label" x="${LABEL_W - 8}" y="${r(y0 + (lanes * BAR_H) / 2 + 4)}" text-anchor="end"><title>${esc(row.label)}</title>${esc(clip(row.label, LABEL_CHARS))}</text>`;
    if (spec.stacked) return `<g class="row">${label}${stackedBars(spec, row, y0, x, unit, digits)}</g>`;
    const bars = spec.series.map((s, j) => {
      const v = row.values[j] ?? null;
      const y = y0 + j * BAR_H;
      const hint = `${row.label}${spec.series.length > 1 ? ` · ${s.name}` : ''}: ${v === null ? 'no value' : fmt(v, digits) + unit}${row.hint ? ` (${row.hint})` : ''}`;
      if (v === null) return `<text class="bar-value" x="${LABEL_W + 4}" y="${r(y + BAR_H - 4)}">—<title>${esc(hint)}</title></text>`;
      return `<rect class="bar" data-label="${esc(row.label)}" data-series="${esc(s.name)}" data-v="${v}" x="${LABEL_W}" y="${r(y + 1)}" width="${r(Math.max(x(v) - LABEL_W, v > 0 ? 1 : 0))}" height="${BAR_H - 2}" fill="${s.color}"><title>${esc(hint)}</title></rect>`
        + `<text class="bar-value" x="${r(x(v) + 4)}" y="${r(y + BAR_H - 4)}">${esc(fmt(v, digits))}${esc(unit)}</text>`;
    }).join('');
    return `<g class="row">${label}${bars}</g>`;
  });
  const legend = spec.series.length > 1 ? `<ul class="legend">${spec.series.map((s) => `<li><span class="swatch" style="--c:${s.color}"></span>${esc(s.name)}</li>`).join('')}</ul>` : '';
  return `<figure class="chart" data-chart="${esc(spec.id)}" data-kind="bars">${caption}
<svg viewBox="0 0 ${W} ${height}" role="img" aria-label="${esc(spec.title)}" xmlns="http://www.w3.org/2000/svg">
<g class="grid">${grid}</g>
<rect class="plot-area" x="${LABEL_W}" y="0" width="${PW}" height="${plotBottom}" fill="none"/>
<text class="axis-title" x="${LABEL_W + PW / 2}" y="${plotBottom + AXIS_H - 2}" text-anchor="middle">${esc(spec.unit)}</text>
${rows.join('\n')}
</svg>${legend}${note}</figure>`;
}

/** One row's parts end to end, each with its exact value in the hover text, and the row's total after the bar. */
function stackedBars(spec: BarChartSpec, row: BarRow, y: number, x: (v: number) => number, unit: string, digits: number): string {
  const r = (n: number): string => n.toFixed(1);
  let at = 0;
  const parts = spec.series.map((s, j) => {
    const v = row.values[j] ?? 0;
    const from = x(at);
    at += v;
    const hint = `${row.label} · ${s.name}: ${fmt(v, digits)}${unit}${row.hint ? ` (${row.hint})` : ''}`;
    return `<rect class="bar" data-label="${esc(row.label)}" data-series="${esc(s.name)}" data-v="${v}" x="${r(from)}" y="${r(y + 1)}" width="${r(Math.max(x(at) - from, 0))}" height="${BAR_H - 2}" fill="${s.color}"><title>${esc(hint)}</title></rect>`;
  }).join('');
  return `${parts}<text class="bar-value" x="${r(x(at) + 4)}" y="${r(y + BAR_H - 4)}">${esc(fmt(at, digits))}${esc(unit)}</text>`;
}
