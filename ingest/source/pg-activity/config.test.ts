import test from 'ava';
import { parseConfig } from '../../config/config.js';
import { pgSourcesFromFlags } from '../../../cli/flags/pg-flags.js';

test('a pg_activity source needs only its connection; interval, timeout and backoff have defaults', (t) => {
  const c = parseConfig({ sources: [{ type: 'pg_activity', connection: 'postgresql://postgres@127.0.0.1:5432/postgres' }] });
  t.deepEqual(c.sources[0], {
    type: 'pg_activity', connection: 'postgresql://postgres@127.0.0.1:5432/postgres', location: 'postgresql://postgres@127.0.0.1:5432/postgres',
    interval_ms: 1000, statement_timeout_ms: 5000, reconnect_max_ms: 30_000,
  });
});

test('--pg-activity URL is a pg_activity source with the defaults', (t) => {
  const c = parseConfig({ sources: pgSourcesFromFlags({ 'pg-activity': ['postgresql://perf@db-1:5433/bp30'] }) });
  t.like(c.sources[0], { type: 'pg_activity', connection: 'postgresql://perf@db-1:5433/bp30', interval_ms: 1000 });
});

test('a password in the URL, another scheme and a fractional interval are refused with their paths', (t) => {
  const error = t.throws(() => parseConfig({
    sources: [
      { type: 'pg_activity', connection: 'postgresql://postgres:secret@127.0.0.1/postgres' },
      { type: 'pg_activity', connection: 'postgresql://postgres@127.0.0.1/postgres?password=secret' },
      { type: 'pg_activity', connection: 'mysql://root@127.0.0.1/x', interval_ms: 250.5 },
    ],
  }, 'perfpipe.yaml'));
  t.is(error?.message, [
    'perfpipe.yaml is not valid:',
    '  sources[0].connection: holds a password; put it in PGPASSWORD or ~/.pgpass instead (the URL is logged and kept in files)',
    '  sources[1].connection: holds a password parameter; put it in PGPASSWORD or ~/.pgpass instead (the URL is logged and kept in files)',
    '  sources[2].connection: has scheme "mysql:"; expected "postgresql://user@host:port/db"',
    '  sources[2].interval_ms: 250.5 is not whole; expected milliseconds >= 100, e.g. 1000',
  ].join('\n'));
});
