// The "Alerts fired" section of `perfpipe demo` as text for people: one short entry per alert group (what fired,
// where, on which lock space, victim and culprit) instead of the alerter's log lines inside the progress line.
import type { AlertDigest } from '../../ingest/alert/alert-digest.js';

export interface FiredAlertLine extends AlertDigest {
  /** When the group's first notice was sent, ms since the epoch. */
  firstSentAt: number;
}

export function alertsFiredText(alerts: readonly FiredAlertLine[], timeZone: string): string {
  if (alerts.length === 0) return '  (none in this run)\n';
  const time = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
  return alerts.map((a) => {
    const where = [a.scope, a.lockSpace ? `lock space ${a.lockSpace}` : ''].filter(Boolean).join(', ');
    // A group of several events shows its latest one's parties (the alerts table holds the others).
    const latest = a.events > 1 ? 'latest ' : '';
    const who = [a.victim ? `${latest}victim ${a.victim}` : '', a.culprit ? `culprit ${a.culprit}` : ''].filter(Boolean).join(' · ');
    const head = `  ${time.format(a.firstSentAt)}  ${a.alertname} (${a.severity}, ${a.events} event${a.events === 1 ? '' : 's'})${where ? `  ${where}` : ''}`;
    return `${head}\n${who ? `            ${who}\n` : ''}`;
  }).join('');
}
