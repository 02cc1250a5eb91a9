import test from 'ava';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadConfigFile, loadConfigInput, parseConfig } from './config.js';
import { packageRoot } from '../store/package-root.js';

test('an empty config gives the documented defaults', (t) => {
  const c = parseConfig({});
  t.is(c.host, hostname());
  t.is(c.data, 'perfpipe-data');
  t.is(c.clickhouse, null);
  t.is(c.listen, '127.0.0.1:9650');
  t.deepEqual(c.sources, []);
  t.is(c.bus.type, 'memory');
  t.like(c.pipeline, { segment_bytes: 8 * 1024 * 1024, poll_interval_ms: 1000, max_in_flight_per_file: 1, segment_delay_ms: 200 });
  t.deepEqual(c.retention, { tj_days: 30, pg_days: 30, pg_activity_days: 30, atop_days: 30, apdex_days: 400, rollup_days: 400, alert_days: 400, error_days: 30, recompress_after_days: 1 });
});

test('the example file parses to what it says', (t) => {
  const c = loadConfigFile(join(packageRoot(), 'perfpipe.example.yaml'));
  t.like(c, { host: 'app-1c-01', data: '/var/lib/perfpipe', clickhouse: null, listen: '127.0.0.1:9650' });
  t.like(c.sources[0], { type: 'tj', location: '/var/log/1c/tj', tz: 'Europe/Moscow', hour: null, idle_finish_s: 60 });
  t.is(c.pipeline.segment_bytes, 4194304);
  t.like(c.retention, { tj_days: 14, rollup_days: 730, pg_days: 30 });
});

test('every mistake is reported at once with its path, the value found and what is expected', (t) => {
  const error = t.throws(() => parseConfig({
    hots: 'a',
    clickhouse: 'ftp://x',
    sources: [{ type: 'tj', location: '/x', tz: 'MSK+3' }, { type: 'tj' }, { type: 'tjj', location: '/y' }],
    pipeline: { segment_bytes: 'big' },
  }, 'perfpipe.yaml'));
  t.is(error?.message, [
    'perfpipe.yaml is not valid:',
    '  clickhouse: expected an http(s) URL, e.g. "http://127.0.0.1:8123"',
    '  sources[0].tz: "MSK+3" is not an IANA zone; expected e.g. "Europe/Moscow"',
    '  sources[1].location: is required; expected a string',
    '  sources[2].type: "tjj" is not known; expected one of "tj", "pg", "apdex", "atop", "atop_raw", "atop_spawn", "pg_activity"',
    '  pipeline.segment_bytes: "big" is not valid; expected a number',
    '  (top level): unknown key "hots"',
  ].join('\n'));
});

test('a file that is not YAML says so with its path', (t) => {
  const error = t.throws(() => loadConfigFile(join(packageRoot(), 'package-lock.json.missing')));
  t.regex(error?.message ?? '', /^cannot read config file .*package-lock\.json\.missing: ENOENT/);
});

test('an apdex source needs only its directory, and says what is wrong with the rest', (t) => {
  t.deepEqual(parseConfig({ sources: [{ type: 'apdex', location: '/srv/1c/apdex' }] }).sources[0], {
    type: 'apdex', location: '/srv/1c/apdex', pattern: '*.xml', tz: null, idle_finish_s: 30,
  });
  const error = t.throws(() => parseConfig({ sources: [{ type: 'apdex', location: '/x', tz: 'Europe/Moscow', pattern: '', glob: '*' }] }, 'p.yaml'));
  t.is(error?.message, [
    'p.yaml is not valid:',
    '  sources[0].pattern: Too small: expected string to have >=1 characters',
    '  sources[0].tz: "Europe/Moscow": only "UTC" is supported for export times so far',
    '  sources[0]: unknown key "glob"',
  ].join('\n'));
});

test('a config file with a pg_activity source takes flags on top (its parsed form is not parsed twice)', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'perfpipe-config-'));
  try {
    const file = join(dir, 'perfpipe.yaml');
    writeFileSync(file, 'sources:\n  - type: pg_activity\n    connection: postgresql://postgres@127.0.0.1:5432/postgres\n    interval_ms: 500\n');
    const input = loadConfigInput(file);
    t.deepEqual(input, { sources: [{ type: 'pg_activity', connection: 'postgresql://postgres@127.0.0.1:5432/postgres', interval_ms: 500 }] });
    const c = parseConfig({ ...input, data: join(dir, 'data') });
    t.like(c.sources[0], { type: 'pg_activity', interval_ms: 500, location: 'postgresql://postgres@127.0.0.1:5432/postgres' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
