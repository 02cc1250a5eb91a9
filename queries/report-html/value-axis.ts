// The value (y) axis of the report's charts: ticks up to the data's top (or the spec's), the scale from a value to
// its height, the bands behind the plot and the grid lines with their labels. time-chart.ts and run-chart.ts share
// it and differ only along x (time, or one slot per run).
import { esc, fmt } from './html.js';
import { valueTicks } from './ticks.js';

/** A horizontal band behind the plot (e.g. an APDEX rating's range) with its label. */
export interface Band { from: number; to: number; color: string; label: string }

/** Where the plot sits in the SVG, in pixels. */
export interface PlotArea { left: number; top: number; width: number; height: number }

export interface ValueAxis {
  /** The y of a value (values above the top tick drawn at the top). */
  y(v: number): number;
  /** SVG of the bands and of the grid with its labels. */
  bands: string;
  grid: string;
}

const r = (n: number): string => n.toFixed(1);

export function valueAxis(plot: PlotArea, o: { max: number; digits: number; integer?: boolean; bands?: readonly Band[] }): ValueAxis {
  const { left, top, width, height } = plot;
  const ticks = valueTicks(o.max, 5, o.integer ?? false);
  const yTop = ticks[ticks.length - 1] as number;
  const y = (v: number): number => top + height - (Math.min(v, yTop) / yTop) * height;
  const bands = (o.bands ?? []).map((b) => `<rect x="${left}" y="${r(y(b.to))}" width="${width}" height="${r(y(b.from) - y(b.to))}" fill="${b.color}"/>`
    + `<text class="band-label" x="${left + width - 4}" y="${r(y(b.to) + 12)}" text-anchor="end">${esc(b.label)}</text>`).join('');
  const grid = ticks.map((v) => `<line x1="${left}" x2="${left + width}" y1="${r(y(v))}" y2="${r(y(v))}"/>`
    + `<text x="${left - 6}" y="${r(y(v) + 4)}" text-anchor="end">${esc(fmt(v, o.digits))}</text>`).join('');
  return { y, bands, grid };
}
