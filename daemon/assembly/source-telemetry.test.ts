import test from 'ava';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { Metrics } from '../../ingest/observe/metrics.js';
import { sinkTelemetry, sourceTelemetry } from './source-telemetry.js';

function capture(): { log: pino.Logger; lines: () => Array<Record<string, unknown>> } {
  const out: string[] = [];
  const stream = new Writable({ write(chunk: Buffer, _enc, cb) { out.push(chunk.toString()); cb(); } });
  return { log: pino({ level: 'debug', base: undefined }, stream), lines: () => out.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

test('exceeded limits and a failing checkpoint store become counters on /metrics and warn or error lines', (t) => {
  const m = new Metrics();
  const { log, lines } = capture();
  const events = sourceTelemetry('tj', log, m);
  events.recordDropped('/tj/rphost_1/26113014.log', 'event_too_large', 2993, 209_920_049);
  events.recordDropped('/tj/rphost_1/26113014.log', 'line_too_long', 10, 300_001);
  events.checkpointFailed('/tj/rphost_1/26113014.log', Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
  events.openFilesLimited(512, 1488);
  const text = m.render();
  t.regex(text, /^perfpipe_records_dropped_total\{source="tj",kind="event_too_large"\} 1$/m);
  t.regex(text, /^perfpipe_records_dropped_total\{source="tj",kind="line_too_long"\} 1$/m);
  t.regex(text, /^perfpipe_checkpoint_failures_total\{source="tj"\} 1$/m);
  t.regex(text, /^perfpipe_open_files_limited_total\{source="tj"\} 1$/m);
  t.regex(text, /^perfpipe_files_waiting\{source="tj"\} 1488$/m);
  t.deepEqual(lines().map((l) => [l.level, l.msg]), [
    [40, 'a record over max_event_bytes was dropped'],
    [40, 'a line over max_line_bytes; its record was dropped'],
    [50, 'cannot write checkpoints; reading waits until it can'],
    [40, 'max_open_files reached; files wait for the next scan'],
  ]);
  t.like(lines()[0], { path: '/tj/rphost_1/26113014.log', kind: 'event_too_large', offset: 2993, length: 209_920_049 });
});

test('a full disk that lasts is logged once, not on every retry, and counted every time', (t) => {
  const m = new Metrics();
  const { log, lines } = capture();
  const events = sourceTelemetry('tj', log, m);
  for (let i = 0; i < 50; i++) events.checkpointFailed('(checkpoints)', new Error('ENOSPC: no space left on device, write'));
  t.is(m.value('perfpipe_checkpoint_failures_total', { source: 'tj' }), 50);
  t.is(lines().length, 1);
});

test('a store outage is logged once when it begins and once when it ends, both as warnings; every failure is counted', (t) => {
  const m = new Metrics();
  const { log, lines } = capture();
  const events = sinkTelemetry(log, m);
  for (let attempt = 1; attempt <= 20; attempt++) events.insertFailed('tj_events', new Error('connect ECONNREFUSED 127.0.0.1:8123'), attempt, false);
  events.inserted('tj_events', 100, 5);
  events.inserted('tj_events', 100, 5);
  t.is(m.value('perfpipe_insert_failures_total', { table: 'tj_events', permanent: 'false' }), 20);
  const said = lines().filter((l) => Number(l.level) >= 40);
  t.deepEqual(said.map((l) => l.msg), ['ClickHouse is not taking inserts; retrying until it does (logged again when it does)', 'ClickHouse takes inserts again']);
  t.like(said[1], { failed_attempts: 20 });
});
