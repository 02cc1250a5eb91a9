// `--from` / `--to` of `perfpipe report`: ISO-8601 or Unix seconds in, Unix seconds out (what the report SQL
// takes: a date text would be read in the ClickHouse server's zone, a number is unambiguous). The window becomes report
// parameters in queries/reports/window-params.ts.
import { ConfigError } from '../../ingest/errors/errors.js';

/** Default window: everything the store can hold (DateTime64 ends in 2299). */
export const ALL_TIME = { from: 0, to: Date.UTC(2200, 0, 1) / 1000 } as const;

const UNIX = /^\d{1,12}(\.\d{1,6})?$/;
const ISO = /^(\d{4}-\d\d-\d\d)(?:[T ](\d\d:\d\d(?::\d\d(?:\.\d{1,9})?)?))?(Z|[+-]\d\d:?\d\d)?$/i;

/** A time flag as Unix seconds; an ISO text without an offset is read as UTC, so the result never depends on the machine. */
export function parseTimeFlag(name: string, text: string): number {
  const t = text.trim();
  if (UNIX.test(t)) return Number(t);
  const m = ISO.exec(t);
  if (m !== null) {
    const zone = m[3] === undefined ? 'Z' : m[3].toUpperCase() === 'Z' ? 'Z' : m[3].replace(/^([+-]\d\d)(\d\d)$/, '$1:$2');
    const ms = Date.parse(`${m[1]}T${m[2] ?? '00:00'}${zone}`);
    if (!Number.isNaN(ms)) return ms / 1000;
  }
  throw new ConfigError(`--${name}: ${JSON.stringify(text)} is not a time; expected ISO-8601 (e.g. "2026-11-30T10:00:00Z") or Unix seconds`);
}

export function reportWindow(from: string | undefined, to: string | undefined): { from: number; to: number } {
  const w = {
    from: from === undefined ? ALL_TIME.from : parseTimeFlag('from', from),
    to: to === undefined ? ALL_TIME.to : parseTimeFlag('to', to),
  };
  if (w.from >= w.to) throw new ConfigError(`--from ${from ?? w.from} is not before --to ${to ?? w.to}`);
  return w;
}
