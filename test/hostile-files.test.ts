// Hostile files tried as a new user would (issue #8): binary garbage, an unterminated quote, NUL bytes and a
// 200 MB event around valid events, through `perfpipe ingest` into a throwaway data directory. Every valid
// event is stored; each piece of bad input is one ingest_errors row with its file and offset.
import test from 'ava';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './support/cli.js';
import { createPrng } from '../simulate/prng.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-hostile-'));
test.after.always(() => { if (!process.env.KEEP) rmSync(work, { recursive: true, force: true }); });

const event = (sec: number, usr: string): string =>
  `${String(Math.floor(sec / 60) % 60).padStart(2, '0')}:${String(sec % 60).padStart(2, '0')}.000000-5,CALL,1,Usr=${usr}\n`;
const events = (prefix: string, n: number): string => Array.from({ length: n }, (_, i) => event(i, `${prefix}${i}`)).join('');

/** Writes parts in order to a new file and returns the offset where each part starts. */
function writeParts(path: string, parts: Array<string | Buffer | (() => Iterable<Buffer>)>): number[] {
  const fd = openSync(path, 'w');
  const starts: number[] = [];
  let at = 0;
  for (const part of parts) {
    starts.push(at);
    const chunks = typeof part === 'function' ? part() : [typeof part === 'string' ? Buffer.from(part) : part];
    for (const chunk of chunks) at += writeSync(fd, chunk);
  }
  closeSync(fd);
  return starts;
}

/** Lines of random bytes, each starting with 0xFF so that none can pass for an event header. */
function binaryGarbage(bytes: number): Buffer {
  const rng = createPrng(11);
  const out = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i++) out[i] = rng.int(0, 255);
  for (let i = 0; i < bytes; i += 97) { out[i] = 0xff; if (i > 0) out[i - 1] = 0x0a; }
  out[bytes - 1] = 0x0a;
  for (let i = 0; i < bytes - 1; i++) if (out[i] === 0x0a && out[i + 1] !== 0xff) out[i] = 0x20;
  return out;
}

async function sql<T>(data: string, query: string): Promise<T[]> {
  const r = await runCli(['sql', query, '--data', data, '--format', 'json']);
  if (r.code !== 0) throw new Error(r.stderr);
  return r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as T);
}

test('binary garbage, an unterminated quote, NUL bytes and a 200 MB event: every valid event stored, each bad piece an ingest error with file and offset', async (t) => {
  const loc = join(work, 'tj');
  const dirs = ['rphost_1', 'rphost_2', 'rphost_3'].map((d) => join(loc, d));
  for (const d of dirs) mkdirSync(d, { recursive: true });
  const [f1, f2, f3] = dirs.map((d) => join(d, '26113014.log')) as [string, string, string];

  const broken = "00:59.000000-1,CALL,1,Usr=broken,Context='Форма.Записать : never closed\n\tМодуль : 1\n";
  const s1 = writeParts(f1, [`\uFEFF${events('a', 50)}`, binaryGarbage(64 * 1024), events('b', 50), broken, events('c', 50)]);

  const bigHeader = "00:30.000000-5,DBPOSTGRS,3,Usr=big,Sql='SELECT\n";
  const block = Buffer.from(`  ${'x'.repeat(1021)},\n`.repeat(1024));
  const s2 = writeParts(f2, [events('d', 50), () => (function* () {
    yield Buffer.from(bigHeader);
    for (let i = 0; i < 200; i++) yield block; // 200 MiB, written a block at a time
    yield Buffer.from("'\n");
  })(), events('e', 50)]);

  const s3 = writeParts(f3, [events('f', 10), `${'\0'.repeat(4096)}\n`, events('g', 10)]);

  const data = join(work, 'data');
  const r = await runCli(['ingest', '--tj', loc, '--tz', 'UTC', '--data', data]);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /^ingested 270 events and 4 ingest errors from 3 files/);

  const users = await sql<{ prefix: string; n: string }>(data, 'SELECT substring(user, 1, 1) AS prefix, count() AS n FROM tj_events GROUP BY prefix ORDER BY prefix');
  t.deepEqual(users.map((u) => [u.prefix, Number(u.n)]), [['a', 50], ['b', 50], ['c', 50], ['d', 50], ['e', 50], ['f', 10], ['g', 10]]);
  const [unique] = await sql<{ n: string }>(data, 'SELECT uniqExact(file_key, file_offset) AS n FROM tj_events');
  t.is(Number(unique?.n), 270);

  const errors = await sql<{ file: string; kind: string; offset: string; length: string; reason: string }>(data,
    'SELECT file, kind, offset, length, reason FROM ingest_errors ORDER BY file, offset');
  t.deepEqual(errors.map((e) => [e.file, e.kind, Number(e.offset), Number(e.length)]), [
    [f1, 'garbage_line', s1[1], 64 * 1024],
    [f1, 'unterminated_quote', s1[3], Buffer.byteLength(broken)],
    [f2, 'event_too_large', s2[1], (s2[2] as number) - (s2[1] as number)],
    [f3, 'garbage_line', s3[1], 4097],
  ]);
  for (const e of errors) t.true(e.reason.startsWith(`${e.file} at offset ${e.offset}: `), e.reason);
});
