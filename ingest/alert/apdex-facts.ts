// The APDEX rule: per key operation, counts of satisfied / tolerating / frustrated measurements per minute of
// measurement time; when the last `window_minutes` hold enough measurements and their APDEX = (S + T/2) / N
// is below the operation's minimum level, a finding. Time is the measurements' own, so a backlog read in a
// burst is judged by when the operations ran, not by when they were read.
import type { ApdexFactsMeasurement } from './segment-facts.js';
import type { AlertConfig } from './config.js';
import { ALERT_NAMES, type Finding } from './lock-facts.js';

interface Minute { n: number; s: number; t: number }
interface Operation { target_us: number; min_level: number | null; minutes: Map<number, Minute>; latest: number }

export class ApdexFacts {
  private readonly operations = new Map<string, Operation>();

  constructor(private readonly config: AlertConfig) {}

  read(host: string, records: Iterable<ApdexFactsMeasurement>, out: Finding[]): void {
    const rule = this.config.rules.apdex_below_minimum;
    if (!rule.enabled) return;
    const touched = new Set<string>();
    for (const m of records) {
      if (m.target_s === null) continue;
      let op = this.operations.get(m.operation);
      if (!op) {
        op = { target_us: 0, min_level: null, minutes: new Map(), latest: 0 };
        this.operations.set(m.operation, op);
      }
      op.target_us = Math.round(m.target_s * 1e6);
      if (m.min_level !== null) op.min_level = m.min_level;
      const minute = Math.floor((Date.parse(m.ts_start) + m.duration_us / 1000) / 60_000);
      const cell = op.minutes.get(minute) ?? { n: 0, s: 0, t: 0 };
      cell.n++;
      if (m.duration_us <= op.target_us) cell.s++;
      else if (m.duration_us <= 4 * op.target_us) cell.t++;
      op.minutes.set(minute, cell);
      op.latest = Math.max(op.latest, minute);
      touched.add(m.operation);
    }
    for (const name of touched) {
      const op = this.operations.get(name) as Operation;
      const from = op.latest - rule.window_minutes + 1;
      let n = 0;
      let s = 0;
      let t = 0;
      for (const [minute, c] of op.minutes) {
        if (minute < from) { op.minutes.delete(minute); continue; }
        n += c.n; s += c.s; t += c.t;
      }
      const minLevel = op.min_level ?? rule.default_min_level;
      const apdex = Math.round(((s + t / 2) / n) * 1000) / 1000;
      if (n < rule.min_measurements || apdex >= minLevel) continue;
      out.push({
        rule: 'apdex_below_minimum',
        labels: { alertname: ALERT_NAMES.apdex_below_minimum, severity: rule.severity, source: '1c-apdex', cluster: host, operation: name },
        count: 1,
        ts: new Date((op.latest + 1) * 60_000).toISOString(),
        example: {
          operation: name, apdex: String(apdex), min_level: String(minLevel), n: String(n), satisfied: String(s),
          tolerating: String(t), frustrated: String(n - s - t), target_s: String(op.target_us / 1e6),
          window: `${rule.window_minutes} min to ${new Date((op.latest + 1) * 60_000).toISOString()}`,
        },
        tally: {},
      });
    }
  }
}
