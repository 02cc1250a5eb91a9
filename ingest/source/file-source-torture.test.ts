// Tailer torture cases of issue #8 on real files in a temp dir with real fs operations: rotation by rename
// and by copytruncate, truncation and deletion while a file is read, a new file under an old name, equal
// heads, a BOM alone, growth one byte at a time, files appearing during start-up, the clock moving back.
// Size limits, many files, permissions and a full disk: file-source-limits-torture.test.ts.
import test from 'ava';
import { appendFileSync, closeSync, copyFileSync, openSync, renameSync, truncateSync, unlinkSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { collector, eventIds, recorder, sleep, tjLine, tjLines, tjSource, until, usr, workspace } from '../../test/support/torture-support.js';

const range = (prefix: string, n: number, from = 0): string[] => Array.from({ length: n }, (_, i) => `${prefix}${from + i}`);
const sorted = (a: string[]): string[] => [...a].sort();

test('rename rotation: the renamed file is read to its end, including what its writer adds after the rename', async (t) => {
  const ws = workspace(t);
  const f = join(ws.proc(), '26113014.log');
  writeFileSync(f, tjLines('a', 50));
  const c = collector();
  const r = recorder();
  const s = tjSource(ws, c.publish, { events: r.events, rotateWaitMs: 1500 });
  await s.start();
  t.teardown(() => s.stop());
  await until('the first 50 events', () => c.events().length === 50);
  const writer = openSync(f, 'a'); // the 1C process keeps its handle across the rename
  renameSync(f, `${f}.1`); // logrotate `create`: the old name goes away (and is not listed any more)
  writeSync(writer, tjLines('a', 30, 50));
  writeFileSync(f, tjLines('n', 20)); // the new file under the old name
  // The source has followed the rename and found the new file before the old writer's last lines arrive.
  await until('the 30 appended after the rename and the new file\'s 20', () => c.events().length >= 100);
  writeSync(writer, tjLines('a', 10, 80)); // the writer is slow to reopen: still inside rotate_wait_ms
  closeSync(writer);
  await until('all 110 events', () => c.events().length >= 110);
  // Once rotate_wait_ms has passed the renamed-away file is read to its end and let go: anything read twice is in.
  await until('the renamed-away file let go', () => r.count('fileDeleted') >= 1);
  t.deepEqual(c.users(), sorted([...range('a', 90), ...range('n', 20)]));
  t.is(new Set(eventIds(c)).size, 110, 'nothing read twice');
  t.is(r.count('fileDeleted'), 1, 'the renamed-away file was reported once');
});

test('rename rotation to a name that is still listed keeps the offset: the file is not read again from 0', async (t) => {
  const ws = workspace(t);
  const dir = ws.proc();
  const f = join(dir, '26113014.log');
  writeFileSync(f, tjLines('a', 40));
  const c = collector();
  const r = recorder();
  const s = tjSource(ws, c.publish, { events: r.events });
  await s.start();
  t.teardown(() => s.stop());
  await until('40 events', () => c.events().length === 40);
  renameSync(f, join(dir, 'rotated-26113014.log'));
  appendFileSync(join(dir, 'rotated-26113014.log'), tjLines('a', 5, 40));
  writeFileSync(f, tjLines('n', 7));
  await until('52 events', () => c.events().length >= 52);
  await s.scanned();
  t.deepEqual(c.users(), sorted([...range('a', 45), ...range('n', 7)]));
  t.is(new Set(eventIds(c)).size, 52);
  t.true(r.count('fileRotated') >= 1);
});

test('copytruncate: the lines written after the truncation are read from offset 0', async (t) => {
  const ws = workspace(t);
  const f = join(ws.proc(), '26113014.log');
  writeFileSync(f, tjLines('a', 40));
  const c = collector();
  const r = recorder();
  const s = tjSource(ws, c.publish, { events: r.events });
  await s.start();
  t.teardown(() => s.stop());
  await until('40 events', () => c.events().length === 40);
  copyFileSync(f, `${f}.1`); // not listed: Fluent Bit's advice, a listed copy would be a new file
  truncateSync(f, 0);
  await until('the truncation to be seen', () => r.count('fileTruncated') === 1);
  appendFileSync(f, tjLines('b', 25));
  await until('65 events', () => c.events().length >= 65);
  await s.scanned();
  t.deepEqual(c.users(), sorted([...range('a', 40), ...range('b', 25)]));
  const b0 = c.events().find((e) => usr(e) === 'b0');
  t.is(b0?.origin.offset, 0);
});

test('copytruncate where the new content starts with the same first line: the file is read anew, not skipped', async (t) => {
  const ws = workspace(t);
  const f = join(ws.proc(), '26113014.log');
  const head = tjLine(0, 'same');
  writeFileSync(f, head + tjLines('a', 20, 1));
  const c = collector();
  const r = recorder();
  const s = tjSource(ws, c.publish, { events: r.events });
  await s.start();
  t.teardown(() => s.stop());
  await until('21 events', () => c.events().length === 21);
  truncateSync(f, 0);
  await until('the truncation to be seen', () => r.count('fileTruncated') === 1);
  appendFileSync(f, head + tjLines('b', 3, 1)); // same first line, same inode: the same file key as before
  await until('25 events', () => c.events().length >= 25);
  await s.scanned();
  t.deepEqual(c.users(), sorted(['same', 'same', ...range('a', 20, 1), ...range('b', 3, 1)]));
});

test('a truncate and a rewrite longer than the old offset between two reads is still seen: the new head differs', async (t) => {
  const ws = workspace(t);
  const f = join(ws.proc(), '26113014.log');
  writeFileSync(f, tjLines('a', 10));
  const c = collector();
  const r = recorder();
  const s = tjSource(ws, c.publish, { events: r.events });
  await s.start();
  t.teardown(() => s.stop());
  await until('10 events', () => c.events().length === 10);
  // One open with O_TRUNC and one write: the size never looks smaller than our offset to a stat.
  writeFileSync(f, tjLines('b', 60));
  await until('60 more events', () => c.events().length >= 70);
  await s.scanned();
  t.deepEqual(c.users(), sorted([...range('a', 10), ...range('b', 60)]));
  t.is(r.count('fileTruncated'), 1);
});

test('truncation while a large file is being read: what was read stays, nothing twice, the new content from 0', async (t) => {
  const ws = workspace(t);
  const f = join(ws.proc(), '26113014.log');
  writeFileSync(f, tjLines('a', 30_000));
  const c = collector();
  const r = recorder();
  let slow = true;
  // A slow downstream keeps the reader in the middle of the file when the truncation comes.
  const s = tjSource(ws, async (seg) => { if (slow) await sleep(30); await c.publish(seg); }, { events: r.events, readChunkBytes: 4096, segmentBytes: 8192 });
  await s.start();
  t.teardown(() => s.stop());
  await until('the first events', () => c.events().length > 0);
  truncateSync(f, 0);
  slow = false;
  await until('the truncation to be seen', () => r.count('fileTruncated') === 1);
  appendFileSync(f, tjLines('b', 10));
  await until('the new content', () => c.users().filter((u) => u.startsWith('b')).length === 10);
  await s.scanned();
  const a = c.users().filter((u) => u.startsWith('a'));
  t.true(a.length < 30_000, 'the truncation came before the end was read');
  t.is(new Set(eventIds(c)).size, c.events().length, 'nothing read twice');
  t.deepEqual(c.errors(), [], 'no half event became an error');
});

test('deletion while a large file is being read: the whole file is still read', async (t) => {
  const ws = workspace(t);
  const f = join(ws.proc(), '26113014.log');
  writeFileSync(f, tjLines('a', 30_000));
  const c = collector();
  const s = tjSource(ws, async (seg) => { await sleep(5); await c.publish(seg); }, { readChunkBytes: 4096, segmentBytes: 16_384 });
  await s.start();
  t.teardown(() => s.stop());
  await until('the first events', () => c.events().length > 0);
  unlinkSync(f);
  t.true(c.events().length < 30_000, 'deleted before the end was read');
  await until('all 30000 events', () => c.events().length >= 30_000, 30_000);
  await s.scanned();
  t.is(c.events().length, 30_000);
  t.is(new Set(eventIds(c)).size, 30_000);
});

test('a new file under the old name with the same first line is read in full after the old one was deleted', async (t) => {
  const ws = workspace(t);
  const f = join(ws.proc(), '26113014.log');
  const head = tjLine(0, 'same');
  writeFileSync(f, head + tjLines('a', 5, 1));
  const c = collector();
  const r = recorder();
  const s = tjSource(ws, c.publish, { events: r.events });
  await s.start();
  t.teardown(() => s.stop());
  await until('6 events', () => c.events().length === 6);
  unlinkSync(f);
  await until('the old file to be finished', () => r.count('fileFinished') === 1);
  writeFileSync(f, head + tjLines('b', 3, 1)); // may even get the old inode back
  await until('10 events', () => c.events().length >= 10);
  await s.scanned();
  t.deepEqual(c.users(), sorted(['same', 'same', ...range('a', 5, 1), ...range('b', 3, 1)]));
});

test('two files with identical first 5000 bytes are two files, both read in full', async (t) => {
  const ws = workspace(t);
  const long = `00:00.000000-5,CALL,1,Usr=same,Context='${'x'.repeat(5000)}'\n`;
  const c = collector();
  const s = tjSource(ws, c.publish);
  await s.start();
  t.teardown(() => s.stop());
  writeFileSync(join(ws.proc('rphost_1'), '26113014.log'), long + tjLines('a', 3, 1));
  writeFileSync(join(ws.proc('rphost_2'), '26113014.log'), long + tjLines('b', 4, 1));
  await until('9 events', () => c.events().length >= 9);
  await s.scanned();
  t.deepEqual(c.users(), sorted(['same', 'same', ...range('a', 3, 1), ...range('b', 4, 1)]));
  t.is(new Set(c.events().map((e) => e.origin.file_key)).size, 2);
});

test('a file holding only a BOM gives nothing and no error until its first event arrives', async (t) => {
  const ws = workspace(t);
  const f = join(ws.proc(), '26113014.log');
  writeFileSync(f, '\uFEFF');
  const c = collector();
  const r = recorder();
  const s = tjSource(ws, c.publish, { events: r.events });
  await s.start();
  t.teardown(() => s.stop());
  await s.scanned(); // listed and looked at twice: it holds no first line to identify it by yet
  t.is(c.segments.length, 0);
  t.is(r.count('readFailed'), 0);
  appendFileSync(f, tjLines('a', 2));
  await until('2 events', () => c.events().length === 2);
  t.is(c.events()[0]?.origin.offset, 3, 'the first event starts after the BOM');
  t.deepEqual(c.errors(), []);
});

test('a file that grows one byte at a time gives exactly the events of the whole file', async (t) => {
  const ws = workspace(t);
  const f = join(ws.proc(), '26113014.log');
  const text = `\uFEFF${tjLine(1, 'a')}00:02.000000-7,DBPOSTGRS,2,Usr=b,Sql='SELECT 1\nFROM t, ''q'''\n${tjLine(3, 'c')}00:04.000000-1,CALL,1,Usr=d\r\n`;
  writeFileSync(f, '');
  const c = collector();
  const s = tjSource(ws, c.publish, { pollIntervalMs: 20 });
  await s.start();
  t.teardown(() => s.stop());
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i++) {
    appendFileSync(f, bytes.subarray(i, i + 1));
    if (i % 3 === 0) await sleep(2);
  }
  await until('4 events', () => c.events().length === 4);
  await s.scanned();
  t.deepEqual(c.users(), ['a', 'b', 'c', 'd']);
  const b = c.events().find((e) => usr(e) === 'b');
  t.is(b?.sql, "SELECT 1\nFROM t, 'q'");
  const offsets = c.events().map((e) => e.origin.offset);
  t.deepEqual(offsets, [3, 3 + tjLine(1, 'a').length, text.indexOf('00:03') + 3 - 1, text.indexOf('00:04') + 3 - 1], 'offsets as in the whole file (the BOM is 3 bytes, 1 character)');
  t.deepEqual(c.errors(), []);
});

test('files appearing while the source starts are all read', async (t) => {
  const ws = workspace(t);
  const c = collector();
  const s = tjSource(ws, c.publish);
  const writing = (async () => {
    for (let p = 0; p < 10; p++) {
      const dir = ws.proc(`rphost_${p}`);
      for (let h = 10; h < 15; h++) {
        writeFileSync(join(dir, `261130${h}.log`), tjLines(`p${p}h${h}-`, 3));
        if (h % 2 === 0) await sleep(0);
      }
    }
  })();
  await s.start();
  t.teardown(() => s.stop());
  await writing;
  await until('150 events', () => c.events().length >= 150);
  await s.scanned();
  t.is(c.events().length, 150);
  t.is(new Set(eventIds(c)).size, 150);
});

test('the clock moving back: an hour file finished earlier is read on when written again, future mtimes do not block', async (t) => {
  const ws = workspace(t);
  const dir = ws.proc();
  const h14 = join(dir, '26113014.log');
  const h15 = join(dir, '26113015.log');
  writeFileSync(h14, tjLines('a', 5));
  writeFileSync(h15, tjLines('b', 5));
  const future = new Date(Date.now() + 3_600_000); // written by a clock an hour ahead of ours
  utimesSync(h14, future, future);
  utimesSync(h15, future, future);
  const c = collector();
  const r = recorder();
  const s = tjSource(ws, c.publish, { events: r.events });
  await s.start();
  t.teardown(() => s.stop());
  await until('10 events', () => c.events().length === 10);
  await until('hour 14 to be finished (superseded by 15) despite its future mtime', () => r.calls.some((x) => x.name === 'fileFinished' && x.args[0] === h14));
  // The 1C server's clock steps back an hour: it writes into hour 14 again and opens hour 13.
  appendFileSync(h14, tjLines('a', 3, 5));
  writeFileSync(join(dir, '26113013.log'), tjLines('z', 2));
  await until('15 events', () => c.events().length >= 15);
  await s.scanned();
  t.deepEqual(c.users(), sorted([...range('a', 8), ...range('b', 5), ...range('z', 2)]));
  t.is(new Set(eventIds(c)).size, 15);
});
