// End to end on the embedded default, as a user runs it: `parse tj` counts, `ingest` stores the same
// count, `sql` reads it back, and a second `ingest` of the same files stores nothing twice.
import test from 'ava';
import { existsSync, mkdtempSync, readdirSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './support/cli.js';
import { corpusDir, missingCorpus, testIf } from './support/prerequisites.js';

const tj = join(corpusDir, 'tj');
const work = mkdtempSync(join(tmpdir(), 'perfpipe-ingest-'));
test.after.always(() => rmSync(work, { recursive: true, force: true }));

async function countBy(data: string): Promise<Record<string, number>> {
  const r = await runCli(['sql', 'SELECT event, count() AS n FROM tj_events GROUP BY event', '--data', data, '--format', 'json']);
  if (r.code !== 0) throw new Error(r.stderr);
  const out: Record<string, number> = {};
  for (const line of r.stdout.trim().split('\n').filter(Boolean)) {
    const row = JSON.parse(line) as { event: string; n: string };
    out[row.event] = Number(row.n);
  }
  return out;
}

testIf(missingCorpus('tj'))('ingest stores exactly what parse prints, and ingesting again changes nothing', async (t) => {
  const files = (readdirSync(tj, { recursive: true }) as string[]).filter((f) => f.endsWith('.log')).map((f) => join(tj, f));
  const parsed = await runCli(['parse', 'tj', '--tz', 'Europe/Moscow', ...files]);
  t.is(parsed.code, 0, parsed.stderr);
  const expected: Record<string, number> = {};
  for (const line of parsed.stdout.split('\n').filter(Boolean)) {
    const e = JSON.parse(line) as { event: string };
    expected[e.event] = (expected[e.event] ?? 0) + 1;
  }
  const total = Object.values(expected).reduce((a, b) => a + b, 0);
  t.true(total > 3000);

  const data = join(work, 'data');
  const first = await runCli(['ingest', '--tj', tj, '--tz', 'Europe/Moscow', '--data', data]);
  t.is(first.code, 0, first.stderr);
  t.regex(first.stdout, new RegExp(`^ingested ${total} events and 0 ingest errors from \\d+ files`));
  t.deepEqual(await countBy(data), expected);

  const again = await runCli(['ingest', '--tj', tj, '--tz', 'Europe/Moscow', '--data', data]);
  t.is(again.code, 0, again.stderr);
  t.regex(again.stdout, /^ingested 0 events/);
  t.deepEqual(await countBy(data), expected);
});

test('bad input is stored as ingest errors with file and offset while the events around it are kept', async (t) => {
  const loc = join(work, 'bad');
  mkdirSync(join(loc, 'rphost_42'), { recursive: true });
  const file = join(loc, 'rphost_42', '26113014.log');
  writeFileSync(file, Buffer.concat([
    Buffer.from('\uFEFF00:01.000001-10,CALL,1,Usr=a\n'),
    Buffer.from([0x00, 0xff, 0xfe, 0x0a]),
    Buffer.from("00:02.000002-20,EXCP,2,Descr='never closed\n00:03.000003-30,CALL,1,Usr=c\n"),
  ]));
  const data = join(work, 'bad-data');
  const r = await runCli(['ingest', '--tj', loc, '--tz', 'UTC', '--data', data]);
  t.is(r.code, 0, r.stderr);
  const events = await runCli(['sql', 'SELECT event, user, toString(ts) AS ts FROM tj_events ORDER BY ts', '--data', data, '--format', 'csv']);
  t.is(events.stdout, '"event","user","ts"\n"CALL","a","2026-11-30 14:00:01.000001"\n"CALL","c","2026-11-30 14:00:03.000003"\n');
  const errors = await runCli(['sql', 'SELECT kind, offset, length, file FROM ingest_errors ORDER BY offset', '--data', data, '--format', 'csv']);
  t.is(errors.stdout, `"kind","offset","length","file"\n"garbage_line",32,4,"${file}"\n"unterminated_quote",36,43,"${file}"\n`);
});

test('unusable arguments exit 2 with a message that says what is expected', async (t) => {
  const r = await runCli(['parse', 'tj', '--tz', 'MSK+3', 'x.log']);
  t.is(r.code, 2);
  t.is(r.stderr, 'perfpipe: --tz: "MSK+3" is not an IANA zone; expected e.g. "Europe/Moscow"\n');
  const missing = await runCli(['parse', 'tj', join(work, 'missing.log')]);
  t.is(missing.code, 2);
  t.regex(missing.stderr, /cannot read .*missing\.log: ENOENT/);
});
