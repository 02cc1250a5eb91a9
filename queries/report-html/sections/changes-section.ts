// The "What changed" section (run-context.ts): PostgreSQL settings, host facts and 1C platform or infobases that
// differ from the run before (or between the two compared runs), then what changed inside a run, with its time.
import type { ChangesSection, ReportPage } from '../report-page.js';
import type { ContextChange, RunChange } from '../../reports/run-context.js';
import { clip, esc, table } from '../html.js';
import { formatInstant, parseUtc } from '../time-format.js';

const value = (v: string | null): string => (v === null ? '<span class="muted">not recorded</span>' : `<code title="${esc(v)}">${esc(clip(v, 80))}</code>`);
const FROM: Record<string, string> = { snapshot: 'runs start / stop', 'pg log': 'server log (reload)', tj: 'technological journal' };

export function changesSection(c: ChangesSection, page: ReportPage): string {
  const tz = page.timeZone;
  const time = (at: string | undefined): string => (at === undefined || at === '' ? '' : esc(formatInstant(parseUtc(at), tz).slice(0, 19)));
  const { comparison: cmp } = c;
  const before = c.against ?? '—';
  const between = table<ContextChange>('changes', [
    { head: 'Scope', cell: (x) => esc(x.scope) },
    { head: 'Setting', cell: (x) => `<strong>${esc(x.name)}</strong>` },
    { head: before, cell: (x) => value(x.a) },
    { head: c.run, cell: (x) => value(x.b) },
    { head: 'Changed at', cell: (x) => time(x.at) },
    { head: 'Seen in', cell: (x) => esc(FROM[x.from] ?? x.from) },
  ], cmp.changes);
  const during = table<RunChange>('changes-during', [
    { head: 'Run', cell: (x) => esc(x.run) },
    { head: 'Scope', cell: (x) => esc(x.scope) },
    { head: 'Setting', cell: (x) => `<strong>${esc(x.name)}</strong>` },
    { head: 'Before', cell: (x) => value(x.a) },
    { head: 'After', cell: (x) => value(x.b) },
    { head: 'At', cell: (x) => time(x.at) },
    { head: 'Seen in', cell: (x) => esc(FROM[x.from] ?? x.from) },
  ], cmp.changes_during);
  const intro = c.against === null ? '' : `<p>From the start of <strong>${esc(c.against)}</strong> to the start of <strong>${esc(c.run)}</strong>:</p>`;
  return `<section id="changes"><h2>What changed</h2>
${intro}${c.against === null ? '' : cmp.changes.length === 0 ? '<p class="empty">Nothing recorded changed between the runs.</p>' : between}
<h3>During the run${cmp.changes_during.length === 1 ? '' : 's'}</h3>
${cmp.changes_during.length === 0 ? '<p class="empty">No setting was reloaded during the run.</p>' : during}
${cmp.notes.map((n) => `<p class="note">${esc(n)}</p>`).join('\n')}
</section>`;
}
