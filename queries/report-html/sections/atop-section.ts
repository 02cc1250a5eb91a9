// The host section, when atop ran during the test: machine CPU busy % and disk busy % per minute (atop_minute,
// atop_disks). Disks are many on a database server, so only the busiest DISKS_SHOWN by peak are drawn.
import type { AtopSection, ReportPage } from '../report-page.js';
import { seriesColor } from '../palette.js';
import { timeChart, type TimeSeries } from '../time-chart.js';
import { bucketName, MIN_POINTS, MINUTE_S } from '../chart-bucket.js';

export const DISKS_SHOWN = 8;

export function atopSection(a: AtopSection, page: ReportPage): string {
  const hosts = [...new Set(a.cpu.map((m) => m.host))].sort();
  const cpu: TimeSeries[] = hosts.map((h, i) => ({ name: h, color: seriesColor(i), points: a.cpu.filter((m) => m.host === h).map((m) => ({ t: m.t, v: m.cpu_busy_pct })) }));
  const peak = new Map<string, number>();
  for (const m of a.disks) peak.set(`${m.host}: ${m.disk}`, Math.max(peak.get(`${m.host}: ${m.disk}`) ?? 0, m.busy_pct_max));
  const shown = [...peak.entries()].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0])).slice(0, DISKS_SHOWN).map(([k]) => k).sort();
  const disks: TimeSeries[] = shown.map((k, i) => ({ name: k, color: seriesColor(i), points: a.disks.filter((m) => `${m.host}: ${m.disk}` === k).map((m) => ({ t: m.t, v: m.busy_pct })) }));
  const left = peak.size - shown.length;
  const per = bucketName(a.bucket);
  // Coarser than the page because of the sampling: say why this chart has fewer points than the others.
  const coarse = a.bucket > (page.bucket ?? MINUTE_S) && (page.domain.to - page.domain.from) / a.bucket < MIN_POINTS
    ? ` atop sampled every ${a.sampleInterval} s: one point per ${per}, fewer than ${MIN_POINTS} in this window.` : '';
  return `<section id="atop"><h2>Hosts (atop)</h2>
<div class="pair">${timeChart({
    id: 'atop-cpu', title: `CPU busy %, mean per ${per}`, kind: 'lines', series: cpu, domain: page.domain, bucket: a.bucket, timeZone: page.timeZone, yTitle: '% busy', yMax: 100, digits: 1,
    note: `Busy: neither idle nor waiting for I/O, over all CPUs of the host.${coarse}`,
  })}${timeChart({
    id: 'atop-disks', title: `Disk busy %, mean per ${per}`, kind: 'lines', series: disks, domain: page.domain, bucket: a.bucket, timeZone: page.timeZone, yTitle: '% busy', yMax: 100, digits: 1,
    ...(left > 0 || coarse !== '' ? { note: `${left > 0 ? `The ${DISKS_SHOWN} disks with the highest peak; ${left} more not drawn.` : ''}${coarse}`.trim() } : {}),
  })}</div>
</section>`;
}
