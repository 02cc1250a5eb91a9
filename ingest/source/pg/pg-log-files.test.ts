// log_filename patterns → the files of one destination, in the order the collector wrote them; the pg source config.
import test from 'ava';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { ConfigError } from '../../errors/errors.js';
import { parseConfig } from '../../config/config.js';
import { filenameRegex, listPgLogFiles } from './pg-log-files.js';

test('strftime escapes and globs become anchored name patterns, with the csv/json naming rule', (t) => {
  const re = filenameRegex('postgresql-%Y-%m-%d_%H%M%S.log', 'stderr');
  t.true(re.test('postgresql-2026-11-30_140945.log'));
  t.false(re.test('postgresql-2026-11-30_140945.csv'));
  t.false(re.test('xpostgresql-2026-11-30_140945.log'));
  t.true(filenameRegex('postgresql-%Y-%m-%d_%H%M%S.log', 'csvlog').test('postgresql-2026-11-30_140945.csv'));
  t.true(filenameRegex('postgresql-%a.log', 'jsonlog').test('postgresql-Mon.json'));
  t.true(filenameRegex('pg-%H', 'csvlog').test('pg-14.csv'));
  t.true(filenameRegex('postgresql-*', 'stderr').test('postgresql-15-main.log'));
  t.true(filenameRegex('100%%-?.log', 'stderr').test('100%-a.log'));
});

test('a directory lists its log files by modification time, skipping the other destinations', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'perfpipe-pglog-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const put = (name: string, mtime: number): void => {
    writeFileSync(join(dir, name), 'x\n');
    utimesSync(join(dir, name), mtime, mtime);
  };
  put('postgresql-Tue.log', 3000); // reused weekday name, truncated and rewritten last
  put('postgresql-Mon.log', 2000);
  put('postgresql-Mon.csv', 2000);
  put('postgresql-Sun.json', 1000);
  put('notes.txt', 1000);
  t.deepEqual((await listPgLogFiles(dir, 'postgresql-*', 'stderr')).map((p) => basename(p)), ['postgresql-Mon.log', 'postgresql-Tue.log']);
  t.deepEqual((await listPgLogFiles(dir, 'postgresql-%a.log', 'csvlog')).map((p) => basename(p)), ['postgresql-Mon.csv']);
  t.deepEqual(await listPgLogFiles(join(dir, 'missing'), 'postgresql-*', 'stderr'), []);
});

test('a pg source gets its defaults, and a mistake names its key and what was expected', (t) => {
  t.like(parseConfig({ sources: [{ type: 'pg', location: '/var/log/postgresql' }] }).sources[0], {
    type: 'pg', location: '/var/log/postgresql', format: null, prefix: null, filename: 'postgresql-*', tz: null, idle_finish_s: 60,
  });
  const e = t.throws(() => parseConfig({ sources: [{ type: 'pg', location: 'x', format: 'syslog', tz: 'MSK+3', prefx: '%m' }] }), { instanceOf: ConfigError });
  t.is(e?.message, [
    'config is not valid:',
    '  sources[0].format: "syslog" is not a log destination; expected "stderr", "csvlog" or "jsonlog"',
    '  sources[0].tz: "MSK+3" is not an IANA zone; expected e.g. "Europe/Moscow"',
    '  sources[0]: unknown key "prefx"',
  ].join('\n'));
});
