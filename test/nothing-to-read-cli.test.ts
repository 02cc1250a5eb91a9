// No silent zero (issue #15): `ingest` and `run` read a log FILE given as the location, and a location that yields
// nothing says which files it holds and which pattern missed them; `ingest` fails when no source has anything.
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './support/cli.js';
import { sinkQuery, startDaemon, waitFor, type Daemon } from './support/daemon.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-nothing-cli-'));
let daemon: Daemon | undefined;
test.after.always(async () => {
  await daemon?.stop('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

const LOG = [
  '2026-11-30 14:09:45.500 UTC [15932] LOG:  duration: 0.512 ms  statement: UPDATE accounts SET balance = 0 WHERE id = 1;',
  '2026-11-30 14:09:46.500 UTC [15932] LOG:  duration: 0.300 ms  statement: SELECT 1;',
  '',
].join('\n');
// The name Debian, Docker images and hand-made configs often give the log, outside the default `postgresql-*`.
const pgDir = join(work, 'pg');
mkdirSync(pgDir);
const pgFile = join(pgDir, 'postgresql.log');
writeFileSync(pgFile, LOG);

test('ingest --pg FILE ingests that file whatever its name', async (t) => {
  const r = await runCli(['ingest', '--pg', pgFile, '--data', join(work, 'data-file')]);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /^ingested 2 events and 0 ingest errors from 1 files/);
});

test('ingest --pg DIR holding only postgresql.log names the file and the pattern, and fails', async (t) => {
  const r = await runCli(['ingest', '--pg', pgDir, '--data', join(work, 'data-dir')]);
  t.is(r.code, 1);
  t.is(r.stdout, '');
  t.is(r.stderr, `perfpipe: nothing to read:\n  pg source ${JSON.stringify(pgDir)}: no file matches the log_filename pattern "postgresql-*"; `
    + 'it holds postgresql.log. Give the log file itself as the location, or its name pattern (--pg-filename, or filename: in the config)\n');
});

test('ingest with one empty source among others says why and ingests the rest', async (t) => {
  const tjDir = join(work, 'tj-empty');
  mkdirSync(tjDir);
  writeFileSync(join(tjDir, 'notes.txt'), 'not a journal\n');
  const r = await runCli(['ingest', '--pg', pgFile, '--tj', tjDir, '--data', join(work, 'data-mixed')]);
  t.is(r.code, 0, r.stderr);
  t.is(r.stderr, `perfpipe: nothing to read: tj source ${JSON.stringify(tjDir)}: no *.log file in it or in its folders (up to 6 levels down); it holds notes.txt\n`);
  t.regex(r.stdout, /^ingested 2 events/);
});

test('ingest --tj FILE reads that journal file', async (t) => {
  const file = join(work, '26113014.log');
  writeFileSync(file, '09:45.500001-1,CONN,0,process=rphost,t:clientID=1\n09:46.500001-2,CONN,0,process=rphost,t:clientID=2\n');
  const r = await runCli(['ingest', '--tj', file, '--tz', 'UTC', '--data', join(work, 'data-tj')]);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /^ingested 2 events and 0 ingest errors from 1 files/);
});

test('run --pg FILE follows that file, and run over a directory it cannot read says why', async (t) => {
  const data = join(work, 'data-run');
  daemon = await startDaemon(['run', '--pg', pgFile, '--data', data]);
  // The last stderr entry waits for the next line, as in any followed log: the first one is stored.
  await waitFor(async () => Number((await sinkQuery<{ n: string }>(data, 'SELECT count() AS n FROM pg_log'))[0]?.n) === 1, 'the first entry', 60_000);
  t.is(await daemon.stop(), 0);
  daemon = await startDaemon(['run', '--pg', pgDir, '--data', join(work, 'data-run-dir')]);
  await waitFor(() => daemon!.log().includes('nothing to read yet'), 'the warning', 30_000);
  t.regex(daemon.log(), /nothing to read yet: pg source .*: no file matches the log_filename pattern \\"postgresql-\*\\"; it holds postgresql\.log/);
  t.is(await daemon.stop(), 0);
});
