// The page's stylesheet, inline so the file needs nothing else: readable on screen, printable to PDF (A4 landscape
// fits the 960-unit charts), no web fonts.
export const PAGE_CSS = `
:root { --ink: #1d2733; --muted: #66707a; --line: #dde2e7; --bg: #ffffff; --soft: #f5f7f9; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--ink); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif; }
main { max-width: 1060px; margin: 0 auto; padding: 28px 32px 48px; }
header h1 { margin: 0 0 6px; font-size: 26px; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 8px 0 18px; color: var(--muted); }
dl.meta dt { font-weight: 600; } dl.meta dd { margin: 0; color: var(--ink); }
nav { margin: 0 0 18px; font-size: 13px; } nav a { margin-right: 14px; color: #2f5f8f; text-decoration: none; }
h2 { margin: 34px 0 10px; padding-bottom: 6px; border-bottom: 2px solid var(--ink); font-size: 20px; }
h3 { margin: 22px 0 8px; font-size: 16px; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(190px, 1fr)); gap: 10px; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; background: var(--soft); }
.card.bad { border-color: #e0a3a3; background: #fdf3f3; }
.card .label { color: var(--muted); font-size: 12px; } .card .value { font-size: 26px; font-weight: 700; margin: 2px 0; }
.card .sub { font-size: 12px; color: var(--muted); overflow-wrap: anywhere; }
figure.chart { margin: 14px 0 18px; } figcaption { font-weight: 600; margin-bottom: 4px; }
figure.chart svg { width: 100%; height: auto; display: block; font-size: 12px; }
svg text { fill: #4a545e; } svg .grid line { stroke: #e6e9ec; } svg .x-axis line { stroke: #9aa3ab; }
svg .plot-area { stroke: #c5ccd3; } svg .axis-title { font-weight: 600; } svg .band-label { fill: #9aa3ab; font-size: 11px; }
svg .date { fill: var(--muted); font-size: 11px; } svg .bar-value { font-size: 11px; }
.pair { display: grid; grid-template-columns: 1fr; }
ul.legend { list-style: none; margin: 4px 0 0; padding: 0; display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 12px; }
.swatch { display: inline-block; width: 18px; height: 4px; margin: 0 6px 3px 0; vertical-align: middle; background: var(--c); }
.swatch.dashed { background: repeating-linear-gradient(90deg, var(--c) 0 6px, transparent 6px 9px); }
p.note { color: var(--muted); font-size: 12px; margin: 4px 0 0; } .empty { color: var(--muted); font-style: italic; }
table { border-collapse: collapse; width: 100%; font-size: 13px; margin: 6px 0; }
th, td { text-align: left; vertical-align: top; padding: 5px 8px; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
th { background: var(--soft); font-weight: 600; } td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tbody tr:nth-child(even) td { background: #fafbfc; }
.ctx { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; word-break: break-word; }
code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; word-break: break-word; }
.conn { font-variant-numeric: tabular-nums; background: #eef2f6; border-radius: 3px; padding: 0 4px; }
.muted { color: var(--muted); } .nowrap { white-space: nowrap; } ul.culprits, ul.edges, ul.runs { margin: 0; padding-left: 16px; }
.rating { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px; font-weight: 600; color: #fff; white-space: nowrap; overflow-wrap: normal; }
.r-excellent { background: #2e7d32; } .r-good { background: #689f38; } .r-fair { background: #b38f00; }
.r-poor { background: #e65100; } .r-unacceptable { background: #c62828; }
.better { color: #2e7d32; font-weight: 600; } .worse { color: #c62828; font-weight: 600; }
footer { margin-top: 40px; color: var(--muted); font-size: 12px; border-top: 1px solid var(--line); padding-top: 8px; }
@media print { main { max-width: none; padding: 0; } figure.chart, table tr, .card { break-inside: avoid; } nav { display: none; } }
`;
