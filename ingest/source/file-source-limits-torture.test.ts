// Tailer torture cases of issue #8 about limits and hostile input, on real files: a 200 MB event, NUL bytes
// and invalid UTF-8, binary garbage without line feeds, replays over a dropped record, thousands of files,
// a file without read permission, a full disk under the checkpoint store.
import test from 'ava';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  appendFileSync, chmodSync, chownSync, closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { PipelineConfigSchema } from '../config/config.js';
import type { Segment } from '../bus/bus.js';
import {
  bytesReadOf, collector, eventIds, recorder, sleep, tjLine, tjLines, tjSource, until, usr, workspace,
} from '../../test/support/torture-support.js';
import { missingTmpfsMount, testIf } from '../../test/support/prerequisites.js';

const defaults = PipelineConfigSchema.parse({});
const configured = {
  limits: { maxEventBytes: defaults.max_event_bytes, maxLineBytes: defaults.max_line_bytes },
  readChunkBytes: defaults.read_chunk_bytes, segmentBytes: defaults.segment_bytes,
};
const MiB = 1024 * 1024;
const range = (prefix: string, n: number, from = 0): string[] => Array.from({ length: n }, (_, i) => `${prefix}${from + i}`);
const sorted = (a: string[]): string[] => [...a].sort();

// Serial: memory and descriptor counts are of the whole process; concurrent tests would blur them.
test.serial('a single 200 MB event between valid events is one ingest error with its offset; the rest is stored and memory stays bounded', async (t) => {
  const ws = workspace(t);
  const f = join(ws.proc(), '26113014.log');
  const before = `\uFEFF${tjLines('a', 100)}`;
  const header = "00:10.000000-5,DBPOSTGRS,3,Usr=big,Sql='SELECT\n";
  const block = Buffer.from(`  ${'x'.repeat(1021)},\n`.repeat(1024)); // 1 MiB of SQL lines
  const fd = openSync(f, 'w');
  writeSync(fd, before + header);
  for (let i = 0; i < 200; i++) writeSync(fd, block);
  writeSync(fd, `'\n${tjLines('b', 100, 100)}`);
  closeSync(fd);
  const bigStart = Buffer.byteLength(before);
  const bigEnd = bigStart + header.length + 200 * block.length + 2;

  const c = collector();
  const r = recorder();
  const s = tjSource(ws, c.publish, { ...configured, events: r.events, mode: 'backfill' });
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 20);
  const t0 = Date.now();
  await s.start();
  await s.done();
  await s.stop();
  clearInterval(sampler);
  t.log(`read in ${Date.now() - t0} ms, peak RSS +${Math.round((peak - base) / MiB)} MiB`);
  t.deepEqual(c.users(), sorted([...range('a', 100), ...range('b', 100, 100)]));
  const [error, ...more] = c.errors();
  t.deepEqual(more, []);
  t.like(error, { kind: 'event_too_large', file: f, offset: bigStart, length: bigEnd - bigStart, can_continue: true });
  t.is(error?.reason, `${f} at offset ${bigStart}: the record there holds more than max_event_bytes (${defaults.max_event_bytes} bytes) without ending; ${bigEnd - bigStart} bytes were skipped and reading resumed at offset ${bigEnd}, the next line that starts a record`);
  t.true(error?.excerpt.startsWith('00:10.000000-5,DBPOSTGRS,3,Usr=big'));
  t.is(r.count('recordDropped'), 1);
  t.true(peak - base < 300 * MiB, `peak RSS grew by ${Math.round((peak - base) / MiB)} MiB; the parser must not hold the whole event`);
});

test('NUL bytes and invalid UTF-8: errors at their offsets, every valid event kept', async (t) => {
  const ws = workspace(t);
  const a = tjLines('a', 3);
  const nulLine = `${'\0'.repeat(1000)}\n`;
  const inv = Buffer.concat([Buffer.from("00:05.000000-5,CALL,1,Usr=inv,Context='"), Buffer.from([0xff, 0xfe, 0x41]), Buffer.from("'\n")]);
  const nulInValue = "00:06.000000-5,CALL,1,Usr=nul,Context='a\0b'\n";
  const b = tjLines('b', 3, 10);
  const f = join(ws.proc(), '26113014.log');
  writeFileSync(f, Buffer.concat([Buffer.from(a + nulLine), inv, Buffer.from(nulInValue + b)]));
  const c = collector();
  const s = tjSource(ws, c.publish, { ...configured, mode: 'backfill' });
  await s.start();
  await s.done();
  await s.stop();
  t.deepEqual(c.users(), sorted([...range('a', 3), 'inv', 'nul', ...range('b', 3, 10)]));
  const invAt = a.length + nulLine.length;
  t.deepEqual(c.errors().map((e) => [e.kind, e.offset, e.length]), [
    ['garbage_line', a.length, nulLine.length],
    ['invalid_utf8', invAt + inv.indexOf(0xff), 1],
  ]);
  const nul = c.events().find((e) => usr(e) === 'nul');
  t.is(nul?.context, 'a\0b', 'a NUL inside a value is data');
});

test('binary garbage without line feeds is cut at max_line_bytes; reading resumes at the next event once it comes', async (t) => {
  const ws = workspace(t);
  const a = tjLines('a', 3);
  const garbage = randomBytes(300_000).map((x) => (x === 0x0a ? 0x20 : x));
  const f = join(ws.proc(), '26113014.log');
  writeFileSync(f, Buffer.concat([Buffer.from(a), garbage]));
  const c = collector();
  const r = recorder();
  const s = tjSource(ws, c.publish, { limits: { maxEventBytes: MiB, maxLineBytes: 64 * 1024 }, events: r.events, readChunkBytes: 16 * 1024 });
  await s.start();
  t.teardown(() => s.stop());
  await until('the valid events before the garbage', () => c.events().length === 3);
  await until('the garbage read to its end', () => bytesReadOf(r, f) >= a.length + garbage.length);
  await s.scanned();
  t.deepEqual(c.errors(), [], 'the garbage is not judged before its end is known');
  appendFileSync(f, `\n${tjLines('b', 3, 10)}`);
  await until('the events after it', () => c.events().length === 6);
  t.deepEqual(c.users(), sorted([...range('a', 3), ...range('b', 3, 10)]));
  t.deepEqual(c.errors().map((e) => [e.kind, e.offset, e.length, e.can_continue]), [['line_too_long', a.length, garbage.length + 1, true]]);
  t.regex(c.errors()[0]?.reason ?? '', /a line starting at offset \d+ is longer than max_line_bytes \(65536 bytes\)/);
  t.is(r.calls.find((x) => x.name === 'recordDropped')?.args[1], 'line_too_long');
});

test('a file that ends inside an oversized record is finished once superseded: the record runs to the end of the file', async (t) => {
  const ws = workspace(t);
  const dir = ws.proc();
  const a = tjLines('a', 3);
  const lines = Buffer.alloc(200 * 1000, 0x41);
  for (let i = 0; i < lines.length; i += 1000) { lines[i] = 0xff; if (i > 0) lines[i - 1] = 0x0a; }
  lines[lines.length - 1] = 0x0a;
  const tail = 'xx'; // a short last line without its line feed: too short to tell whether it starts an event
  const f = join(dir, '26113014.log');
  writeFileSync(f, Buffer.concat([Buffer.from(a), lines, Buffer.from(tail)]));
  const c = collector();
  const r = recorder();
  const s = tjSource(ws, c.publish, { limits: { maxEventBytes: 64 * 1024, maxLineBytes: 16 * 1024 }, events: r.events });
  await s.start();
  t.teardown(() => s.stop());
  await until('the valid events', () => c.events().length === 3);
  await until('the file read to its end', () => bytesReadOf(r, f) >= a.length + lines.length);
  await s.scanned();
  t.deepEqual(c.errors(), [], 'while the file may grow, the record is not judged');
  writeFileSync(join(dir, '26113015.log'), tjLines('b', 2));
  await until('hour 14 to be finished', () => r.calls.some((x) => x.name === 'fileFinished' && x.args[0] === f));
  await until('the events of hour 15', () => c.events().length === 5);
  t.deepEqual(c.errors().map((e) => [e.kind, e.offset, e.length, e.can_continue]), [['event_too_large', a.length, lines.length + tail.length, false]]);
  t.regex(c.errors()[0]?.reason ?? '', /bytes up to the end of the file were skipped$/);
});

test('a replay over a dropped record drops exactly the same bytes: same segment id, same error', async (t) => {
  const ws = workspace(t);
  const big = `00:05.000000-5,CALL,1,Usr=big,Sql='${'SELECT 1\n'.repeat(30_000)}'\n`;
  const f = join(ws.proc(), '26113014.log');
  writeFileSync(f, tjLines('a', 3) + big + tjLines('b', 3, 10));
  const limits = { maxEventBytes: 64 * 1024, maxLineBytes: 16 * 1024 };
  const lost: Segment[] = [];
  const s1 = tjSource(ws, (seg) => { lost.push(seg); return new Promise(() => {}); }, { limits, readChunkBytes: 64 * 1024 });
  await s1.start();
  await until('the unacknowledged segment', () => lost.length === 1);
  await s1.stop();
  const c = collector();
  const s2 = tjSource(ws, c.publish, { limits, readChunkBytes: 4096 }); // another read size: the same cut
  await s2.start();
  t.teardown(() => s2.stop());
  await until('the replay', () => c.segments.length >= 1);
  t.is(c.segments[0]?.id, lost[0]?.id);
  t.deepEqual(c.segments[0]?.errors, lost[0]?.errors);
  t.is(c.errors()[0]?.kind, 'event_too_large');
  t.deepEqual(c.users(), sorted([...range('a', 3), ...range('b', 3, 10)]));
});

const openFds = (): number => readdirSync('/proc/self/fd').length;

function thousandsOfFiles(loc: string): number {
  let n = 0;
  for (let p = 0; p < 20; p++) {
    const dir = join(loc, `rphost_${p}`);
    mkdirSync(dir);
    for (let d = 1; d <= 25; d++) {
      for (let h = 0; h < 4; h++, n++) {
        const name = `2611${String(d).padStart(2, '0')}${String(h).padStart(2, '0')}.log`;
        writeFileSync(join(dir, name), tjLine(1, `p${p}-${name}-1`) + tjLine(2, `p${p}-${name}-2`));
      }
    }
  }
  return n;
}

test.serial('thousands of files in one location, followed: all read, never more than max_open_files open at once', async (t) => {
  const ws = workspace(t);
  const files = thousandsOfFiles(ws.loc);
  const c = collector();
  const r = recorder();
  const base = openFds();
  let peak = base;
  const sampler = setInterval(() => { peak = Math.max(peak, openFds()); }, 5);
  const s = tjSource(ws, c.publish, { events: r.events, maxOpenFiles: 64 });
  await s.start();
  t.teardown(() => s.stop());
  await until(`${files * 2} events`, () => c.events().length >= files * 2, 120_000);
  clearInterval(sampler);
  await s.scanned(2, 60_000);
  t.is(c.events().length, files * 2);
  t.is(new Set(eventIds(c)).size, files * 2);
  t.true(r.count('openFilesLimited') > 0, 'the limit was reached and reported');
  t.true(peak - base <= 64 + 16, `${peak - base} descriptors more than before (max_open_files 64, a few for the watcher)`);
});

test.serial('thousands of files in one location, backfilled: all read, a few open at a time', async (t) => {
  const ws = workspace(t);
  const files = thousandsOfFiles(ws.loc);
  const c = collector();
  const base = openFds();
  let peak = base;
  const sampler = setInterval(() => { peak = Math.max(peak, openFds()); }, 5);
  const s = tjSource(ws, c.publish, { mode: 'backfill', backfillConcurrency: 2 });
  await s.start();
  await s.done();
  await s.stop();
  clearInterval(sampler);
  t.is(c.events().length, files * 2);
  t.true(peak - base <= 16, `${peak - base} descriptors more than before with 2 files read at a time`);
});

test('a file without read permission is reported once; the other files go on, and it is read once permitted', async (t) => {
  const ws = workspace(t);
  const isRoot = process.getuid?.() === 0;
  const nobody = 65534;
  chmodSync(ws.root, 0o755);
  const ok1 = join(ws.proc('rphost_1'), '26113014.log');
  const denied = join(ws.proc('rphost_2'), '26113014.log');
  const ok3 = join(ws.proc('rphost_3'), '26113014.log');
  writeFileSync(ok1, tjLines('a', 2));
  writeFileSync(denied, tjLines('d', 2));
  writeFileSync(ok3, tjLines('c', 2));
  chmodSync(denied, 0o000);
  mkdirSync(ws.cp);
  if (isRoot) chownSync(ws.cp, nobody, nobody); // root ignores file modes: the reader runs as nobody
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '..', '..', 'test', 'support', 'torture-unprivileged-reader.ts'),
    JSON.stringify({ loc: ws.loc, cp: ws.cp, ...(isRoot ? { uid: nobody } : {}) })], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.teardown(() => { child.kill('SIGKILL'); });
  const lines: Array<{ users?: string[]; failed?: string; code?: string; scan?: number }> = [];
  let rest = '';
  child.stdout.on('data', (d: Buffer) => {
    rest += d.toString();
    const parts = rest.split('\n');
    rest = parts.pop() ?? '';
    for (const p of parts) lines.push(JSON.parse(p) as (typeof lines)[number]);
  });
  const users = (): string[] => lines.flatMap((l) => l.users ?? []).sort();
  const scans = (): number => Math.max(0, ...lines.map((l) => l.scan ?? 0));
  await until('the permitted files', () => users().length === 4, 30_000);
  const at = scans();
  await until('three scans more, each trying the denied file again', () => scans() >= at + 4, 30_000);
  t.deepEqual(users(), ['a0', 'a1', 'c0', 'c1']);
  t.deepEqual(lines.filter((l) => l.failed).map((l) => [l.failed, l.code]), [[denied, 'EACCES']], 'reported once, not on every scan');
  chmodSync(denied, 0o644);
  await until('the file once permitted', () => users().length === 6, 30_000);
  t.deepEqual(users(), ['a0', 'a1', 'c0', 'c1', 'd0', 'd1']);
  child.kill('SIGTERM');
});

/** Mounts a tmpfs of `size` on `dir`; whether this machine can is checked before the test (missingTmpfsMount). */
function mountTmpfs(dir: string, size: string): void {
  mkdirSync(dir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
}

/** Writes 4 KiB blocks until the file system is full; returns the filler's path. */
function fill(dir: string): string {
  const filler = join(dir, 'filler');
  const fd = openSync(filler, 'w');
  const block = Buffer.alloc(4096, 1);
  try {
    for (;;) writeSync(fd, block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  return filler;
}

testIf(missingTmpfsMount())('a full disk under the checkpoint store pauses reading; once space is back everything is published exactly once', async (t) => {
  const ws = workspace(t);
  const fsDir = join(ws.root, 'small-fs');
  mountTmpfs(fsDir, '256k');
  t.teardown(() => { try { execFileSync('umount', ['-l', fsDir]); } catch { /* already gone */ } });
  const cp = join(fsDir, 'checkpoints');
  const f = join(ws.proc(), '26113014.log');
  writeFileSync(f, tjLines('a', 20));
  const c = collector();
  const r = recorder();
  const s = tjSource({ ...ws, cp }, c.publish, { events: r.events });
  await s.start();
  t.teardown(() => s.stop());
  await until('20 events', () => c.events().length === 20);
  const filler = fill(fsDir);
  // The journal's last page may still have room: write on until an intent does not fit.
  let n = 20;
  while (r.count('checkpointFailed') === 0) {
    if (n >= 5000) throw new Error(`the full disk was never noticed: ${n} lines written, every intent fitted`);
    appendFileSync(f, tjLines('b', 5, n));
    n += 5;
    await sleep(30);
  }
  await s.scanned(); // what had its intent on disk is out
  const published = c.events().length;
  await s.scanned(3); // three reads more of the file, each finding no room for an intent
  t.is(c.events().length, published, 'nothing is published without its intent on disk');
  t.true(published < n, 'some lines wait');
  appendFileSync(f, tjLines('c', 10, n));
  rmSync(filler);
  await until(`${n + 10} events`, () => c.events().length >= n + 10);
  await s.scanned();
  await s.stop();
  t.deepEqual(c.users(), sorted([...range('a', 20), ...range('b', n - 20, 20), ...range('c', 10, n)]));
  t.is(new Set(eventIds(c)).size, n + 10);
  const journal = readFileSync(join(cp, 'snapshot.json'), 'utf8');
  t.notThrows(() => JSON.parse(journal), 'the snapshot is whole');
  const again = collector();
  const r2 = recorder();
  const s2 = tjSource({ ...ws, cp }, again.publish, { events: r2.events });
  await s2.start();
  await until('the file opened again', () => r2.count('fileAdded') === 1);
  await s2.scanned();
  await s2.stop();
  t.is(r2.calls.find((x) => x.name === 'fileAdded')?.args[2], statSync(f).size, 'opened at its end');
  t.is(again.events().length, 0, 'the offsets survived: a restart reads nothing twice');
});
