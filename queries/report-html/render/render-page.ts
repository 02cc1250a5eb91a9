// The HTML report as one self-contained file: header with run and window, headline numbers, then one section per
// report (APDEX, 1C locks, PostgreSQL locks, atop, top statements, errors, what changed, a run comparison, or the run history). Pure: a ReportPage in, a string out. The
// page has no script and loads nothing: charts are inline SVG and the stylesheet is inline.
import type { ReportPage } from '../report-page.js';
import { esc } from '../html.js';
import { PAGE_CSS } from '../page-style.js';
import { formatDate, formatDateMinute, formatInstant, formatMinute, zoneLabel } from '../time-format.js';
import { apdexSection } from '../sections/apdex-section.js';
import { atopSection } from '../sections/atop-section.js';
import { compareSection } from '../sections/compare-section.js';
import { locksSection } from '../sections/locks-section.js';
import { pgLocksSection } from '../sections/pg-locks-section.js';
import { pgWaitsSection } from '../sections/pg-waits-section.js';
import { runsSection } from '../sections/runs-section.js';
import { summaryCards } from '../sections/summary.js';
import { sqlSection } from '../sections/sql-section.js';
import { errorsSection } from '../sections/errors-section.js';
import { whySection } from '../sections/why-section.js';
import { changesSection } from '../sections/changes-section.js';

export function renderReportPage(page: ReportPage): string {
  const tz = page.timeZone;
  const sections: Array<[string, string, string]> = [];
  if (page.runs) sections.push(['runs', 'Run history', runsSection(page.runs, page)]);
  if (page.compare) sections.push(['compare', 'Run comparison', compareSection(page.compare, page)]);
  if (page.changes) sections.push(['changes', 'What changed', changesSection(page.changes, page)]);
  if (page.apdex) sections.push(['apdex', 'APDEX', apdexSection(page.apdex, page)]);
  if (page.locks) sections.push(['locks', '1C managed locks', locksSection(page.locks, page)]);
  if (page.pg) sections.push(['pg-locks', 'PostgreSQL locks', pgLocksSection(page.pg, page)]);
  if (page.pgWaits) sections.push(['pg-waits', 'PostgreSQL waits', pgWaitsSection(page.pgWaits, page)]);
  if (page.atop) sections.push(['atop', 'Hosts (atop)', atopSection(page.atop, page)]);
  if (page.why) sections.push(['why', 'Where the time went', whySection(page.why, page)]);
  if (page.sql) sections.push(['sql', 'Top statements', sqlSection(page.sql, page)]);
  if (page.errors) sections.push(['errors', 'Errors', errorsSection(page.errors, page)]);
  const meta: Array<[string, string]> = [];
  if (page.run !== null) meta.push(['Run', esc(page.run)]);
  meta.push(['Window', esc(windowText(page.window, tz))], ['Times in', esc(zoneLabel(page.window.from * 1000, tz))], ['Generated', esc(formatInstant(page.generatedAt, tz).slice(0, 19))]);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(page.title)}${page.run !== null ? ` — ${esc(page.run)}` : ''}</title>
<style>${PAGE_CSS}</style>
</head>
<body>
<main>
<header>
<h1>${esc(page.title)}</h1>
<dl class="meta">${meta.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>
</header>
${sections.length > 1 ? `<nav>${sections.map(([id, name]) => `<a href="#${id}">${esc(name)}</a>`).join('')}</nav>` : ''}
${summaryCards(page)}
${sections.map(([, , html]) => html).join('\n')}
<footer>Made by perfpipe from the report SQL in queries/reports/ (the numbers of <code>perfpipe report … --format json</code>). Hover a point or bar for its exact value.</footer>
</main>
</body>
</html>
`;
}

/** `2026-11-30 10:00 – 10:20 (20 min)`; the end keeps its date when the window crosses midnight. */
export function windowText(w: { from: number; to: number }, timeZone: string): string {
  const from = w.from * 1000;
  const to = w.to * 1000;
  const end = formatDate(from, timeZone) === formatDate(to, timeZone) ? formatMinute(to, timeZone) : formatDateMinute(to, timeZone);
  return `${formatDateMinute(from, timeZone)} – ${end} (${duration(w.to - w.from)})`;
}

function duration(seconds: number): string {
  if (seconds < 90) return `${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  const h = Math.floor(minutes / 60);
  if (h < 48) return `${h} h ${minutes % 60} min`;
  return `${Math.round(h / 24)} days`;
}
