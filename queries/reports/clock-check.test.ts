// The clock check after an ingest: spans whole hours apart are said, with the shift; spans that agree, or overlap
// about as well either way, are not.
import test from 'ava';
import { clockWarnings, wholeHoursApart } from './clock-check.js';

const H = 3_600_000;
const at = (iso: string): number => Date.parse(iso);
const span = (from: string, minutes: number) => ({ fromMs: at(from), toMs: at(from) + minutes * 60_000 });

test('a TJ read three hours off (Moscow time read as UTC) is found three hours later than the PostgreSQL log', (t) => {
  const pg = span('2026-11-30T09:00:00Z', 90);
  t.is(wholeHoursApart({ fromMs: pg.fromMs + 3 * H, toMs: pg.toMs + 3 * H }, pg), -3);
  t.is(wholeHoursApart({ fromMs: pg.fromMs - 9 * H, toMs: pg.toMs - 9 * H }, pg), 9);
});

test('an eleven-hour run three hours off still overlaps most of it, and is still said', (t) => {
  const pg = span('2026-11-30T06:00:00Z', 11 * 60);
  t.is(wholeHoursApart({ fromMs: pg.fromMs + 3 * H, toMs: pg.toMs + 3 * H }, pg), -3);
});

test('spans that agree, a TJ inside a day-long log, and spans no shift explains say nothing', (t) => {
  const pg = span('2026-11-30T09:00:00Z', 90);
  t.is(wholeHoursApart(pg, pg), null);
  t.is(wholeHoursApart(span('2026-11-30T12:00:00Z', 60), span('2026-11-30T00:00:00Z', 24 * 60)), null);
  t.is(wholeHoursApart(span('2026-11-30T09:20:00Z', 30), span('2026-11-30T10:00:00Z', 5)), null);
});

test('the warning names both spans, the zone the TJ was read in and the way out', (t) => {
  const pg = span('2026-11-30T09:00:00Z', 90);
  const [w, ...more] = clockWarnings({ tj: { fromMs: pg.fromMs + 3 * H, toMs: pg.toMs + 3 * H }, pg, atop: null }, ['UTC']);
  t.deepEqual(more, []);
  t.regex(w ?? '', /^the TJ \(2026-11-30 12:00–2026-11-30 13:30 UTC, read in UTC\) and the PostgreSQL log of this ingest \(2026-11-30 09:00–2026-11-30 10:30 UTC\) are 3 hours apart; .*earlier by 3 h.*--tz/);
});
