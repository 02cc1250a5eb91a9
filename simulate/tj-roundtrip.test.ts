// Simulated TJ through the real parser: every generated event must come back with its name, time, duration, depth
// and properties (quotes doubled, values with line breaks, repeated names), whatever the chunking and line ends.
import test from 'ava';
import { createTjParser } from '../parsers/tj/index.js';
import type { TjEvent } from '../schemas/tj-event.js';
import type { IngestError } from '../schemas/ingest-error.js';
import { tjRecords, tjRecordsAsync, type TjGeneratorOptions, type TjSimRecord } from './tj-generator.js';
import { formatTjEvent, UTF8_BOM, type TjWriteOptions } from './tj-writer.js';

const options: TjGeneratorOptions = {
  seed: 7,
  start: new Date('2026-03-02T07:58:00Z'), // 10:58 in Moscow: the span crosses into the 11:00 file
  durationMs: 4 * 60_000,
  processes: 2,
  sessionsPerProcess: 6,
  timeZone: 'Europe/Moscow',
  // Rare outcomes made common so a short run holds all of them.
  rates: { lockWait: 0.2, lockTimeout: 0.05, deadlock: 0.05, lateContext: 0.2 },
};

/** Groups records by the file they belong to, in file order. */
function byFile(records: TjSimRecord[]): Map<string, TjSimRecord[]> {
  const files = new Map<string, TjSimRecord[]>();
  for (const r of records) {
    const key = `rphost_${r.process.pid}/${r.clock.hour}.log`;
    files.set(key, [...(files.get(key) ?? []), r]);
  }
  return files;
}

function parseText(text: string, hour: string, chunk: number): { events: TjEvent[]; errors: IngestError[] } {
  const parser = createTjParser({ host: 'sim', source: 'tj', file: 'x', file_key: 'x', offset: 0, hour, tz: 'Europe/Moscow' });
  const bytes = Buffer.from(text, 'utf8');
  const events: TjEvent[] = [];
  const errors: IngestError[] = [];
  for (let at = 0; at < bytes.length; at += chunk) {
    const out = parser.push(bytes.subarray(at, at + chunk));
    events.push(...out.events);
    errors.push(...out.errors);
  }
  const out = parser.finish();
  return { events: [...events, ...out.events], errors: [...errors, ...out.errors] };
}

const isoUs = (epochUs: number): string => `${new Date(Math.floor(epochUs / 1000)).toISOString().slice(0, 23)}${String(epochUs % 1000).padStart(3, '0')}Z`;

const records = [...tjRecords(options)];

test('the short run holds every event type the generator knows, and crosses an hour', (t) => {
  const names = new Set(records.map((r) => r.event.name));
  t.deepEqual([...names].sort(), ['CALL', 'CONN', 'Context', 'DBPOSTGRS', 'EXCP', 'SCALL', 'SDBL', 'TDEADLOCK', 'TLOCK', 'TTIMEOUT']);
  t.deepEqual([...new Set(records.map((r) => r.clock.hour))], ['26030210', '26030211']);
  // A quoted value with a line that looks like an event header: only quote tracking keeps it inside its event.
  const lookalike = records.filter((r) => r.event.props.some(([, v]) => /\n\d\d:\d\d\.\d{6}-\d+,[A-Za-z]+,\d+,/.test(v)));
  t.true(lookalike.length > 0);
});

test('the same seed gives the same stream', (t) => {
  const again = [...tjRecords(options)];
  t.is(again.length, records.length);
  t.deepEqual(again.slice(0, 50), records.slice(0, 50));
  t.deepEqual(again.at(-1), records.at(-1));
});

test('the async iterator gives the same records as the sync one', async (t) => {
  const first: TjSimRecord[] = [];
  for await (const record of tjRecordsAsync(options)) {
    first.push(record);
    if (first.length === 2500) break;
  }
  t.deepEqual(first, records.slice(0, 2500));
});

test('some lines are out of time order within their file, as in real files', (t) => {
  let inversions = 0;
  for (const list of byFile(records).values()) for (let i = 1; i < list.length; i++) if ((list[i] as TjSimRecord).at_us < (list[i - 1] as TjSimRecord).at_us) inversions++;
  t.true(inversions > 0);
  t.true(inversions < records.length / 100);
});

for (const [label, write, chunk] of [
  ['LF, 8.3, 64 KiB chunks', {}, 65536],
  ['CRLF, 8.3, 7-byte chunks', { eol: '\r\n' }, 7],
  ['LF, 8.2, 1 MiB chunks', { version: '8.2' }, 1 << 20],
] as const) {
  // 8.2 keeps 1/10000 s: the end time and the duration come back truncated to 100 µs.
  const tick = (us: number): number => ('version' in write ? us - (us % 100) : us);
  test(`every generated event comes back from the parser unchanged (${label})`, (t) => {
    let checked = 0;
    for (const [file, list] of byFile(records)) {
      const hour = (list[0] as TjSimRecord).clock.hour;
      const text = UTF8_BOM + list.map((r) => formatTjEvent({ ...r.clock, ...r.event }, write as TjWriteOptions)).join('');
      const { events, errors } = parseText(text, hour, chunk);
      t.deepEqual(errors, [], file);
      t.is(events.length, list.length, file);
      list.forEach((r, i) => {
        const e = events[i] as TjEvent;
        const where = `${file} event ${i} (${r.event.name})`;
        t.is(e.event, r.event.name, where);
        t.is(e.ts, isoUs(tick(r.event.end_us)), where);
        t.is(e.ts_start, isoUs(tick(r.event.end_us) - tick(r.event.duration_us)), where);
        t.is(e.duration_us, tick(r.event.duration_us), where);
        t.is(e.depth, r.event.depth, where);
        t.deepEqual(e.properties, r.event.props.flat(), where);
        checked++;
      });
    }
    t.is(checked, records.length);
  });
}
