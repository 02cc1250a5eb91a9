// The headline numbers at the top of the page, one card each, from the sections present: what a manager reads
// first (overall APDEX and its rating, the worst operation, lock trouble, peak CPU).
import type { ReportPage } from '../report-page.js';
import { clip, esc, fmt } from '../html.js';
import { rating } from './apdex-section.js';

interface Card { id: string; label: string; value: string; sub: string; tone?: 'bad' | 'good' }

export function summaryCards(page: ReportPage): string {
  const cards: Card[] = [];
  const a = page.apdex;
  if (a) {
    const all = a.report.overall.count_weighted;
    const operations = a.report.operations.filter((o) => o.apdex !== null);
    cards.push({ id: 'apdex-overall', label: 'APDEX, all key operations', value: all ? esc(fmt(all.apdex)) : '—', sub: all ? `${rating(all.rating)} · ${esc(fmt(all.n, 0))} runs of ${operations.length} operations` : 'no measurements' });
    const weighted = a.report.overall.priority_weighted;
    if (weighted) cards.push({ id: 'apdex-priority', label: '1C overall performance (priority-weighted)', value: esc(fmt(weighted.apdex)), sub: rating(weighted.rating) });
    // apdex.sql orders operations worst first.
    const worst = operations[0];
    if (worst) cards.push({ id: 'apdex-worst', label: 'Worst key operation', value: esc(fmt(worst.apdex)), sub: `<span title="${esc(worst.operation)}">${esc(clip(worst.operation, 48))}</span>` });
  }
  const l = page.locks;
  if (l) {
    cards.push({ id: 'tj-lock-waits', label: '1C managed-lock waits', value: esc(fmt(l.counts.tj_lock_waits, 0)), sub: `${esc(fmt(l.counts.tj_lock_wait_s))} s waited in all` });
    cards.push({ id: 'tj-timeouts', label: 'Lock timeouts (TTIMEOUT)', value: esc(fmt(l.counts.tj_timeouts, 0)), sub: 'user operations that failed on a lock', ...(l.counts.tj_timeouts > 0 ? { tone: 'bad' as const } : {}) });
    cards.push({ id: 'tj-deadlocks', label: 'Deadlocks (TDEADLOCK)', value: esc(fmt(l.counts.tj_deadlocks, 0)), sub: '1C managed locks', ...(l.counts.tj_deadlocks > 0 ? { tone: 'bad' as const } : {}) });
  }
  const p = page.pg;
  if (p) {
    cards.push({ id: 'pg-lock-waits', label: 'PostgreSQL lock waits', value: esc(fmt(p.counts.pg_lock_waits, 0)), sub: `${esc(fmt(p.counts.pg_lock_timeouts, 0))} lock timeouts, ${esc(fmt(p.counts.pg_deadlocks, 0))} deadlocks`, ...(p.counts.pg_deadlocks + p.counts.pg_lock_timeouts > 0 ? { tone: 'bad' as const } : {}) });
  }
  const t = page.atop;
  if (t && t.cpu.length > 0) {
    const top = t.cpu.reduce((x, y) => (y.cpu_busy_pct_max > x.cpu_busy_pct_max ? y : x));
    cards.push({ id: 'cpu-peak', label: 'Peak CPU busy', value: `${esc(fmt(top.cpu_busy_pct_max, 1))} %`, sub: `on ${esc(top.host)}` });
  }
  if (cards.length === 0) return '';
  return `<div class="cards">${cards.map((c) => `<div class="card${c.tone ? ` ${c.tone}` : ''}" data-card="${c.id}"><div class="label">${esc(c.label)}</div><div class="value">${c.value}</div><div class="sub">${c.sub}</div></div>`).join('')}</div>`;
}
