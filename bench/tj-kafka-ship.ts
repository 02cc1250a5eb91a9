// TJ files → Kafka, perfpipe beside rsyslog on the same files and the same local broker (issue #7's bar: perfpipe,
// which tails, parses and produces the events as JSON (NDJSON, many per message), ships at ≥ 50% of rsyslog's raw-line rate, in MB of
// input per second).
//   perfpipe  the agent only (ingest/distributed/agent.ts: tail + parse + produce, acks=all, no compression by default), in
//             this process; timed from its start until every segment is acknowledged (perfpipe_bytes_acked_total =
//             the input's bytes) and every event was acknowledged (perfpipe_events_total = the input's events).
//   rsyslog   imfile → omkafka (rsyslog-ship.ts), timed from rsyslogd's start until the topic holds every line.
// Usage: npx tsx bench/tj-kafka-ship.ts [--size-mb 100]
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { startAgent } from '../ingest/distributed/agent.js';
import { configForRole } from '../ingest/cli/role-flags.js';
import { LiveMetrics } from '../ingest/observe/live-metrics.js';
import { familyTopic } from '../ingest/bus/kafka-topics.js';
import { startBroker, stopBroker } from '../test/support/kafka-broker.js';
import { generateTj, type GeneratedTj } from './generate-tj.js';
import { createTopicCounter, type TopicCounter } from './kafka-topic-count.js';
import { ensureRsyslog } from './rsyslog-install.js';
import { countLines, shipWithRsyslog } from './rsyslog-ship.js';
import { isMain } from './bench-paths.js';
import { type BenchResult, type Figure, figureRows, formatTable } from './figures.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface PerfpipeShip { seconds: number; cpuS: number; acked: number; events: number; messages: number; segments: number; publishS: number }

/** One agent run over the input into its own topic prefix; `compression` overrides the bus default (none). */
async function shipWithPerfpipe(input: GeneratedTj, brokers: string[], work: string, counter: TopicCounter, compression?: 'gzip', name?: string): Promise<PerfpipeShip> {
  const prefix = `bench${name ?? compression ?? 'default'}.`;
  const { config } = configForRole(['--kafka', brokers.join(','), '--tj', input.dir, '--tz', input.time_zone, '--data', join(work, `agent-${prefix}`)], 'agent', 'bench');
  if (config.bus.type !== 'kafka') throw new Error('the agent config has no Kafka bus');
  config.bus.topic_prefix = prefix;
  if (compression) config.bus.compression = compression;
  const metrics = new LiveMetrics();
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const agent = await startAgent(config, pino({ level: 'silent' }), metrics);
  let acked = 0;
  try {
    while ((acked = metrics.total('perfpipe_bytes_acked_total')) < input.bytes && performance.now() - t0 < 900_000) await sleep(20);
  } finally {
    await agent.stop();
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return {
    seconds, cpuS: (cpu.user + cpu.system) / 1e6, acked, events: metrics.total('perfpipe_events_total'), messages: await counter.count([familyTopic(prefix, 'tj')]),
    segments: metrics.total('perfpipe_publish_seconds_count'), publishS: metrics.total('perfpipe_publish_seconds_sum'),
  };
}

export async function run(o: { sizeMb?: number } = {}): Promise<BenchResult> {
  const input = generateTj({ sizeMb: o.sizeMb ?? 100 });
  const files = input.files.map((f) => join(input.dir, f.path));
  const lines = countLines(files);
  const mb = input.bytes / 1e6;
  const work = mkdtempSync(join(tmpdir(), 'perfpipe-ship-'));
  const broker = await startBroker();
  // Other work on the machine slows both shippers: the load average says how much there was.
  const notes: string[] = [`load average at start ${loadavg().map((x) => x.toFixed(1)).join(' ')}`];
  const figures: Figure[] = [];
  let ok = true;
  const counter = await createTopicCounter(broker.brokers);
  try {
    // A warm-up pass, not reported: a running agent is past V8's JIT warm-up, and the first pass of a cold
    // process measured up to a third slower than the same pass afterwards.
    await shipWithPerfpipe(input, broker.brokers, work, counter, undefined, 'warmup');
    const ours = await shipWithPerfpipe(input, broker.brokers, work, counter);
    const gzip = await shipWithPerfpipe(input, broker.brokers, work, counter, 'gzip');
    for (const [label, r] of [['default config (no compression, like rsyslog)', ours], ['compression gzip', gzip]] as const) {
      ok &&= r.acked === input.bytes && r.events === input.events && r.messages > 0;
      notes.push(`perfpipe ${label}: ${r.acked} of ${input.bytes} bytes and ${r.events} of ${input.events} events acknowledged, in ${r.messages} messages; `
        + `${r.segments} segments, mean ${((r.publishS / Math.max(1, r.segments)) * 1000).toFixed(0)} ms from hand-over to ack; ${r.cpuS.toFixed(1)} CPU s in ${r.seconds.toFixed(1)} s`);
    }
    figures.push(
      { name: 'perfpipe agent TJ → Kafka (tail + parse + produce, acked)', value: mb / ours.seconds, unit: 'MB/s' },
      { name: 'perfpipe agent TJ → Kafka', value: input.events / ours.seconds, unit: 'events/s' },
      { name: 'perfpipe agent TJ → Kafka per CPU second', value: mb / ours.cpuS, unit: 'MB/s' },
      { name: 'perfpipe agent TJ → Kafka, compression gzip', value: mb / gzip.seconds, unit: 'MB/s' },
    );
    const found = ensureRsyslog();
    if ('why' in found) {
      ok = false;
      notes.push(`no rsyslog comparison: ${found.why}`);
    } else {
      const topic = 'bench.rsyslog.tj';
      // As many partitions as perfpipe's topic (the bus default, 6): the same broker work per message.
      await counter.ensure(topic, 6);
      const glob = join(input.dir, '*', '*.log');
      const theirs = await shipWithRsyslog(found.rsyslog, { work: join(work, 'rsyslog'), glob, brokers: broker.brokers, topic, lines, counter });
      ok &&= !theirs.timedOut && theirs.messages === lines;
      notes.push(`rsyslog ${found.rsyslog.version}: ${theirs.messages} messages in the topic for ${lines} lines${theirs.timedOut ? ' (timed out)' : ''}`);
      figures.push(
        { name: 'rsyslog imfile → omkafka (raw lines, acked)', value: mb / theirs.seconds, unit: 'MB/s' },
        { name: 'rsyslog imfile → omkafka', value: lines / theirs.seconds, unit: 'lines/s' },
        { name: 'rsyslog imfile → omkafka per CPU second', value: mb / theirs.cpuS, unit: 'MB/s' },
        { name: 'perfpipe / rsyslog (MB/s of the same input)', value: theirs.seconds / ours.seconds, unit: '×' },
        { name: 'perfpipe compression gzip / rsyslog', value: theirs.seconds / gzip.seconds, unit: '×' },
      );
    }
    notes.push(`load average at end ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  } finally {
    await counter.close();
    await stopBroker(broker.port);
    rmSync(work, { recursive: true, force: true });
  }
  return { bench: 'tj-kafka-ship', input: { bytes: input.bytes, events: input.events, lines, files: files.length }, figures, ok, notes };
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { 'size-mb': { type: 'string' } } });
  const r = await run({ sizeMb: Number(values['size-mb'] ?? 100) });
  console.log(formatTable(['bench', 'figure', 'value', 'unit'], figureRows(r)));
  for (const note of r.notes ?? []) console.log(`note: ${note}`);
  if (!r.ok) process.exitCode = 1;
}
