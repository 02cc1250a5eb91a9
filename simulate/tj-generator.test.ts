// The TJ tree writer: folders and hour files as the platform names them, the ground truth it returns matches what
// is on disk, and an event lands in the file of its end hour.
import test from 'ava';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createTjParser } from '../parsers/tj/index.js';
import { writeTjTree, type TjTreeOptions } from './tj-generator.js';
import { createLocalClock } from './tj-layout.js';

const options: TjTreeOptions = {
  seed: 3,
  start: new Date('2026-03-02T07:57:00Z'), // 10:57 Moscow
  durationMs: 6 * 60_000,
  processes: 3,
  sessionsPerProcess: 4,
  timeZone: 'Europe/Moscow',
  eol: '\r\n',
};

test('the tree holds rphost_<pid>/<yymmddhh>.log files whose bytes and event counts are the returned ground truth', (t) => {
  const out = mkdtempSync(join(tmpdir(), 'tj-tree-'));
  t.teardown(() => rmSync(out, { recursive: true, force: true }));
  const result = writeTjTree(out, options);
  const onDisk = readdirSync(out).flatMap((folder) => readdirSync(join(out, folder)).map((f) => `${folder}/${f}`)).sort();
  t.deepEqual(onDisk, result.files.map((f) => relative(out, f.path)).sort());
  t.is(new Set(onDisk.map((f) => f.split('/')[0])).size, 3);
  for (const f of onDisk) t.regex(f, /^rphost_\d+\/2603021[01]\.log$/);
  t.is(result.bytes, result.files.reduce((sum, f) => sum + statSync(f.path).size, 0));
  t.is(result.events, Object.values(result.counts).reduce((a, b) => a + b, 0));

  const clock = createLocalClock('Europe/Moscow');
  for (const file of result.files) {
    const bytes = readFileSync(file.path);
    t.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    t.false(/[^\r]\n/.test(bytes.toString('utf8')), 'every line break is CRLF');
    const hour = file.path.slice(-12, -4);
    const parser = createTjParser({ host: 't', source: 'tj', file: file.path, file_key: 'k', offset: 0, hour, tz: 'Europe/Moscow' });
    const first = parser.push(bytes);
    const last = parser.finish();
    const events = [...first.events, ...last.events];
    t.deepEqual([...first.errors, ...last.errors], []);
    const counts: Record<string, number> = {};
    for (const e of events) counts[e.event] = (counts[e.event] ?? 0) + 1;
    t.deepEqual(counts, file.counts);
    t.true(events.every((e) => clock(Date.parse(e.ts) * 1000).hour === hour), `${file.path}: an event ends outside the file's hour`);
  }
});

test('a byte limit stops the tree just past it, and the same seed writes the same bytes', (t) => {
  const a = mkdtempSync(join(tmpdir(), 'tj-tree-'));
  const b = mkdtempSync(join(tmpdir(), 'tj-tree-'));
  t.teardown(() => [a, b].forEach((d) => rmSync(d, { recursive: true, force: true })));
  const limited = { ...options, maxBytes: 300_000 };
  const ra = writeTjTree(a, limited);
  const rb = writeTjTree(b, limited);
  t.true(ra.bytes >= 300_000 && ra.bytes < 320_000);
  t.deepEqual(ra.counts, rb.counts);
  for (const f of ra.files) t.true(readFileSync(f.path).equals(readFileSync(join(b, relative(a, f.path)))));
});

test('the repeated local hour of a DST fall-back goes into one file, whose minutes then start over', (t) => {
  const out = mkdtempSync(join(tmpdir(), 'tj-tree-'));
  t.teardown(() => rmSync(out, { recursive: true, force: true }));
  // Berlin, 2026-10-25: 02:00–03:00 local happens twice, 00:00–01:00 UTC (CEST) and 01:00–02:00 UTC (CET).
  const result = writeTjTree(out, { ...options, timeZone: 'Europe/Berlin', processes: 1, sessionsPerProcess: 2,
    start: new Date('2026-10-25T00:50:00Z'), durationMs: 20 * 60_000 });
  t.deepEqual(result.files.map((f) => f.path.slice(-12)), ['26102502.log']);
  const minutes = readFileSync(result.files[0]?.path ?? '', 'utf8').split('\r\n').flatMap((l) => /^\uFEFF?(\d\d):\d\d\.\d{6}-/.exec(l)?.[1] ?? []);
  t.is(minutes[0], '50');
  t.true(minutes.includes('59') && minutes.includes('00') && Number(minutes.at(-1)) < 10);
});
