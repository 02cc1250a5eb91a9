// One descriptor per data family (docs/adding-a-family.md): the perfmon test family (test/families/perfmon/) is one
// folder and one descriptor, registered with `FAMILIES.with` instead of a line in ingest/families/registry.ts, with
// its DDL file applied as a product family's migration would be. Every list perfpipe keeps of its families takes it
// in — config types, retention keys and tables, topics, layouts — and its lines go end to end through the embedded
// pipeline into its own table.
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FAMILIES } from '../ingest/families/registry.js';
import { parseConfig } from '../ingest/config/config.js';
import { topicNames } from '../ingest/bus/kafka-topics.js';
import { loadMigrations, migrate } from '../ingest/store/migrations.js';
import { applyRetention, ttlDays } from '../ingest/store/retention.js';
import { validateSegment } from '../ingest/sink/segment-validation.js';
import { createLogger } from '../ingest/observe/logger.js';
import { startPipeline, type Pipeline } from '../daemon/pipeline.js';
import { explainNothingToRead } from '../daemon/assembly/nothing-to-read.js';
import { PERFMON_FAMILY } from './families/perfmon/perfmon-family.js';
import { PERFMON_SAMPLES } from './families/perfmon/perfmon-record.js';
import { RowBinaryReader } from '../schemas/row-binary.js';

const families = FAMILIES.with(PERFMON_FAMILY);
const perfmonDir = join(dirname(fileURLToPath(import.meta.url)), 'families', 'perfmon');
const work = mkdtempSync(join(tmpdir(), 'perfpipe-family-'));
let pipeline: Pipeline | undefined;
test.after.always(async () => {
  await pipeline?.stop();
  rmSync(work, { recursive: true, force: true });
});

const HEADER = '"(PDH-CSV 4.0) (Russian Standard Time)(-180)","\\\\SRV1\\Processor(_Total)\\% Processor Time","\\\\SRV1\\Memory\\Available MBytes"\r\n';
const LINES = [
  '"12/01/2026 10:00:00.125","12.5","2048"\r\n',
  '"12/01/2026 10:00:15.125"," ","2040"\r\n',
  'not a sample line\r\n',
  '"12/01/2026 10:00:30.125","99.5","2000"\r\n',
];

test('every list of families takes in a registered family: names, tables, retention, topics, source types', (t) => {
  t.deepEqual(families.names, ['tj', 'pg', 'apdex', 'atop', 'pg_activity', 'perfmon']);
  t.is(families.layout(PERFMON_SAMPLES.id), PERFMON_SAMPLES);
  t.is(FAMILIES.layout(PERFMON_SAMPLES.id), undefined, 'the built-in registry is left as it was');
  t.deepEqual(families.retentionTables.filter((r) => r.key === 'perfmon_days'), [{ table: 'perfmon_samples', key: 'perfmon_days', column: 'ingested_at' }]);
  t.true(topicNames('perfpipe.', families.names).families.includes('perfpipe.perfmon'));
  t.is(families.kind('perfmon')?.family, PERFMON_FAMILY);
  t.throws(() => families.with(PERFMON_FAMILY), { message: 'two families name the family perfmon: each must be given once (docs/adding-a-family.md)' });
});

test('the config takes its entries and its retention key, with their defaults, only from a registry that has it', (t) => {
  const config = parseConfig({ sources: [{ type: 'perfmon', location: '/counters' }], retention: { perfmon_days: 7 } }, 'p.yaml', families);
  t.deepEqual(config.sources, [{ type: 'perfmon', location: '/counters', pattern: '*.csv', idle_finish_s: 60 } as never]);
  t.is(config.retention.perfmon_days, 7);
  t.is(parseConfig({}, 'p.yaml', families).retention.perfmon_days, 14);
  t.throws(() => parseConfig({ sources: [{ type: 'perfmon', location: '/counters', patern: '*.csv' }] }, 'p.yaml', families), {
    message: 'p.yaml is not valid:\n  sources[0]: unknown key "patern"',
  });
  t.throws(() => parseConfig({ retention: { perfmon_days: 7 } }, 'p.yaml'), { message: 'p.yaml is not valid:\n  retention: unknown key "perfmon_days"' });
});

test('an old agent\'s perfmon segment is checked against the family\'s event schema and mapped by its row builder', (t) => {
  const origin = { host: 'h', source: 'perfmon', file: '/c/a.csv', file_key: 'k', offset: 0 };
  const segment = {
    id: 'h|k|0-10', family: 'perfmon', host: 'h', source: 'perfmon', file: '/c/a.csv', file_key: 'k', start: 0, end: 10, records: 2,
    tables: [], errors: [], legacy: [{ ts: '2026-12-01 07:00:00.125', counter: 'c', value: 1, origin }, { ts: 'x', counter: 'c', origin }],
  };
  const { segment: valid, invalid } = validateSegment(segment, families);
  const [table] = valid.tables;
  t.is(table?.rows, 1);
  t.like(PERFMON_SAMPLES.readRow(new RowBinaryReader(table!.body)), { counter: 'c', value: 1, file_key: 'k' });
  t.is(invalid.length, 1);
  t.regex(invalid[0]!.reason, /does not match the perfmon event schema: value: /);
  t.is(validateSegment(segment, FAMILIES).invalid[0]?.reason, 'segment h|k|0-10 is of family "perfmon", which this perfpipe does not know (an agent of another version?)');
});

test.serial('its lines go through the embedded pipeline into its own table, with its retention and its errors', async (t) => {
  const counters = join(work, 'counters');
  mkdirSync(counters);
  const config = parseConfig({ data: join(work, 'data'), sources: [{ type: 'perfmon', location: counters }], pipeline: { poll_interval_ms: 100 } }, 'test', families);
  t.regex(await explainNothingToRead(config.sources[0]!, families) ?? '', /: the directory is empty$/);
  writeFileSync(join(counters, 'notes.txt'), 'x\n');
  t.is(await explainNothingToRead(config.sources[0]!, families),
    `perfmon source ${JSON.stringify(counters)}: no file matches the pattern "*.csv"; it holds notes.txt. Give the file itself as the location, or its name pattern (pattern: in the config)`);

  pipeline = await startPipeline(config, 'follow', createLogger('silent'), families);
  const store = pipeline.store;
  // What `migrate` does for a family whose DDL file is in queries/ddl/; then its TTL, as at a start.
  t.deepEqual(await migrate(store, loadMigrations(perfmonDir)), ['900_perfmon_samples']);
  t.deepEqual(await applyRetention(store, config.retention, families.retentionTables), ['perfmon_samples: kept for ever → 14 days']);
  writeFileSync(join(counters, 'srv1_000001.csv'), HEADER + LINES.join(''));

  const query = async <T>(sql: string): Promise<T[]> => (await store.client.query({ query: sql, format: 'JSONEachRow' })).json<T>();
  const deadline = Date.now() + 30_000;
  const stored = async (): Promise<number> => Number((await query<{ n: string }>('SELECT count() AS n FROM perfmon_samples'))[0]?.n);
  while (await stored() < 6 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const rows = await query<{ ts: string; counter: string; value: number | null; file_offset: string }>(
    'SELECT ts, counter, value, file_offset FROM perfmon_samples ORDER BY ts, counter');
  const cpu = '\\\\SRV1\\Processor(_Total)\\% Processor Time';
  const mem = '\\\\SRV1\\Memory\\Available MBytes';
  const at = (i: number): string => String(HEADER.length + LINES.slice(0, i).join('').length);
  t.deepEqual(rows, [
    { ts: '2026-12-01 07:00:00.125', counter: mem, value: 2048, file_offset: at(0) },
    { ts: '2026-12-01 07:00:00.125', counter: cpu, value: 12.5, file_offset: at(0) },
    { ts: '2026-12-01 07:00:15.125', counter: mem, value: 2040, file_offset: at(1) },
    { ts: '2026-12-01 07:00:15.125', counter: cpu, value: null, file_offset: at(1) },
    { ts: '2026-12-01 07:00:30.125', counter: mem, value: 2000, file_offset: at(3) },
    { ts: '2026-12-01 07:00:30.125', counter: cpu, value: 99.5, file_offset: at(3) },
  ]);
  t.deepEqual(await query('SELECT source, kind, offset FROM ingest_errors'), [{ source: 'perfmon', kind: 'bad_line', offset: at(2) }]);
  const [table] = await query<{ q: string }>("SELECT create_table_query AS q FROM system.tables WHERE name = 'perfmon_samples'");
  t.is(ttlDays(table!.q), 14);
});
