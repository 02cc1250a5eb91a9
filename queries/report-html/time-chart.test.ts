import test from 'ava';
import { timeChart, type TimeChartSpec } from './time-chart.js';

const T0 = Date.UTC(2026, 10, 30, 10, 0) / 1000;
const base: TimeChartSpec = { id: 'c', title: 'T', kind: 'lines', series: [], domain: { from: T0, to: T0 + 600 }, timeZone: 'UTC', yTitle: 'y' };

test('a line is broken where a minute has no value, and every point carries its minute and value', (t) => {
  const svg = timeChart({ ...base, yMax: 1, series: [{ name: 'op', color: '#4e79a7', points: [{ t: T0, v: 1 }, { t: T0 + 60, v: 0.5 }, { t: T0 + 180, v: 0 }] }] });
  t.is(svg.match(/<path /g)?.length, 1);
  t.deepEqual([...svg.matchAll(/data-t="(\d+)" data-v="([\d.]+)"/g)].map((m) => [Number(m[1]) - T0, Number(m[2])]), [[0, 1], [60, 0.5], [180, 0]]);
});

test('stacked bars of one minute sit on each other and zero values draw nothing', (t) => {
  const svg = timeChart({
    ...base, kind: 'stacked-bars', series: [
      { name: 'a', color: '#111111', points: [{ t: T0, v: 1 }, { t: T0 + 60, v: 0 }] },
      { name: 'b', color: '#222222', points: [{ t: T0, v: 1 }] },
    ],
  });
  const bars = [...svg.matchAll(/<rect class="bar"[^>]* y="([\d.]+)" width="[\d.]+" height="([\d.]+)"/g)].map((m) => [Number(m[1]), Number(m[2])]);
  t.is(bars.length, 2);
  const [[y1, h1], [y2, h2]] = bars as [[number, number], [number, number]];
  t.is(h1, h2);
  t.is(Number((y2 + h2).toFixed(1)), y1);
});

test('series names are escaped in the legend, the group and the hover text', (t) => {
  const svg = timeChart({ ...base, series: [{ name: '<script>"x"</script>', color: '#4e79a7', points: [{ t: T0, v: 1 }] }] });
  t.false(svg.includes('<script>'));
  t.true(svg.includes('data-series="&lt;script&gt;&quot;x&quot;&lt;/script&gt;"'));
});

test('a chart without points says so instead of drawing empty axes', (t) => {
  t.regex(timeChart({ ...base, series: [{ name: 'a', color: '#111111', points: [] }] }), /data-empty="true".*No data in this window/s);
});
