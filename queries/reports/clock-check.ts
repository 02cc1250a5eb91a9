// One clock (issue 30): the TJ is local time in a zone it does not print (parsers/tj/zone-file.ts), while PostgreSQL
// logs and atop carry theirs. A TJ read in the wrong zone sits whole hours away from the PostgreSQL log and atop of
// the same run, and every join by time (dbpid ↔ pid, atop minutes, APDEX minutes) silently finds nothing. After an
// ingest, the spans of what it stored tell: if the TJ's span overlaps the other's far better when moved by whole
// hours than where it is, that is said, with the shift.
import type { ClickHouseClient } from '@clickhouse/client';
import { reportSql } from './reports.js';

export interface Span {
  fromMs: number;
  toMs: number;
}

const HOUR_MS = 3_600_000;
/** A span shorter than this counts as this long (one event, or a few seconds of a short run). */
const MIN_SPAN_MS = 60_000;

function overlapShare(a: Span, b: Span, shiftMs: number): number {
  const overlap = Math.min(a.toMs + shiftMs, b.toMs) - Math.max(a.fromMs + shiftMs, b.fromMs);
  const shorter = Math.max(MIN_SPAN_MS, Math.min(a.toMs - a.fromMs, b.toMs - b.fromMs));
  return Math.max(0, overlap) / shorter;
}

/**
 * Hours (−14…+14, not 0) to add to the TJ's times so that they cover the other span, when shifted they overlap
 * mostly (80 % of the shorter span) and clearly better than as they are (by a fifth of it: an eleven-hour run read
 * three hours off still overlaps 8/11 of itself); null when they agree (or nothing tells).
 */
export function wholeHoursApart(tj: Span, other: Span): number | null {
  let best = 0;
  let bestShare = overlapShare(tj, other, 0);
  for (let h = -14; h <= 14; h++) {
    const share = overlapShare(tj, other, h * HOUR_MS);
    if (share > bestShare + 1e-9) { best = h; bestShare = share; }
  }
  if (best === 0 || bestShare < 0.8) return null;
  return overlapShare(tj, other, 0) <= bestShare - 0.2 ? best : null;
}

export interface IngestSpans {
  tj: Span | null;
  pg: Span | null;
  atop: Span | null;
}

/** The spans of the rows each family stored since `sinceS` (epoch seconds, whole). */
export async function ingestSpans(client: ClickHouseClient, sinceS: number): Promise<IngestSpans> {
  const rs = await client.query({ query: reportSql('ingest-spans'), query_params: { since: sinceS }, format: 'JSONEachRow' });
  const rows = await rs.json<{ family: keyof IngestSpans; from_ms: string; to_ms: string; n: string }>();
  const out: IngestSpans = { tj: null, pg: null, atop: null };
  for (const r of rows) if (Number(r.n) > 0) out[r.family] = { fromMs: Number(r.from_ms), toMs: Number(r.to_ms) };
  return out;
}

/** Sentences for each PostgreSQL log or atop span the TJ of the same ingest sits whole hours away from. */
export function clockWarnings(spans: IngestSpans, tjZones: readonly string[]): string[] {
  const out: string[] = [];
  if (spans.tj === null) return out;
  const zones = tjZones.length > 0 ? tjZones.join(', ') : 'this machine\'s zone';
  for (const [name, span] of [['PostgreSQL log', spans.pg], ['atop samples', spans.atop]] as const) {
    if (span === null) continue;
    const h = wholeHoursApart(spans.tj, span);
    if (h === null) continue;
    const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
    out.push(`the TJ (${iso(spans.tj.fromMs)}–${iso(spans.tj.toMs)} UTC, read in ${zones}) and the ${name} of this ingest `
      + `(${iso(span.fromMs)}–${iso(span.toMs)} UTC) are ${Math.abs(h)} hour${Math.abs(h) === 1 ? '' : 's'} apart; they line up `
      + `when the TJ is moved ${h > 0 ? 'later' : 'earlier'} by ${Math.abs(h)} h. Joins by time between them find nothing: if the 1C server's `
      + `clock is in another zone, give it with --tz (or tj/timezone.txt) and ingest the TJ again into a fresh --data`);
  }
  return out;
}

/** The store's own clock, epoch seconds: `ingested_at` is stamped by it, not by this machine. */
export async function storeNowS(client: ClickHouseClient): Promise<number> {
  const rs = await client.query({ query: 'SELECT toString(toUnixTimestamp(now())) AS s', format: 'JSONEachRow' });
  const [row] = await rs.json<{ s: string }>();
  return Number(row?.s ?? Math.floor(Date.now() / 1000));
}
