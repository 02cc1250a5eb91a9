// TJ files → Kafka, perfpipe beside rsyslog on the same files and the same local broker (issue: the agent ships at
// ≥ 1.0× rsyslog's raw-line rate, in MB of input per second). Whole processes, alternating, medians:
//   perfpipe  `perfpipe agent` (bin/perfpipe.js: tail + parse + encode rows + produce, acks=all, its default bus
//             settings: rows messages as LZ4 frames), timed from its spawn until its /metrics say every byte and
//             every event was acknowledged.
//   rsyslog   imfile → omkafka (rsyslog-ship.ts), timed from rsyslogd's start until the topic holds every line;
//             each round twice: as librdkafka defaults (uncompressed, the reference of the ratio) and with
//             compression.codec=lz4 (the same codec as the agent's, a second ratio).
// Usage: npx tsx bench/tj-kafka-ship.ts [--size-mb 100] [--rounds 3] [--pipeline 'max_in_flight_per_file: 4']…
//        [--bus 'compression: none']…
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { familyTopic, topicNames } from '../ingest/bus/kafka-topics.js';
import { FAMILIES } from '../ingest/families/registry.js';
import { startBroker, stopBroker } from '../test/support/kafka-broker.js';
import { httpGet, startDaemon } from '../test/support/daemon.js';
import { generateTj, type GeneratedTj } from './generate-tj.js';
import { createTopicCounter, type TopicCounter } from './kafka-topic-count.js';
import { ensureRsyslog } from './rsyslog-install.js';
import { countLines, shipWithRsyslog } from './rsyslog-ship.js';
import { isMain } from './bench-paths.js';
import { type BenchResult, type Figure, figureRows, formatTable } from './figures.js';
import { median, peakRssKiB } from './process-stats.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface PerfpipeShip { seconds: number; cpuS: number; acked: number; events: number; messages: number; peakMiB: number }

/** A counter's value in Prometheus text (summed over its label sets). */
function metric(text: string, name: string): number {
  let sum = 0;
  for (const line of text.split('\n')) if (line.startsWith(name) && (line[name.length] === ' ' || line[name.length] === '{')) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  return sum;
}

/** utime + stime (s) and peak RSS (MiB) of a live process, from /proc. */
function usage(pid: number): { cpuS: number; peakMiB: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { cpuS: (Number(f[11]) + Number(f[12])) / 100, peakMiB: peakRssKiB(pid) / 1024 };
}

/** One `perfpipe agent` process over the input into its own topic prefix, from spawn to the last acknowledgement. */
async function shipWithPerfpipe(input: GeneratedTj, brokers: string[], work: string, counter: TopicCounter, name: string, pipeline: string[], bus: string[]): Promise<PerfpipeShip> {
  const prefix = `bench${name}.`;
  const config = join(work, `agent-${name}.yaml`);
  writeFileSync(config, ['bus:', '  type: kafka', `  brokers: ["${brokers[0]}"]`, `  topic_prefix: "${prefix}"`, ...bus.map((l) => `  ${l}`), ...(pipeline.length > 0 ? ['pipeline:', ...pipeline.map((l) => `  ${l}`)] : []), ''].join('\n'));
  // Its topics exist before the clock starts, as rsyslog's topic does (and as they do for an agent after its first
  // start): creating seven topics and electing their leaders on a fresh KRaft broker took up to ~0.4 s of a ~3.5 s
  // round, a one-time cost rsyslog's timing never carried.
  const names = topicNames(prefix, FAMILIES.names);
  for (const topic of [...names.families, names.dlq, names.alerts]) await counter.ensure(topic, 6);
  const t0 = performance.now();
  const agent = await startDaemon(['agent', '--config', config, '--tj', input.dir, '--tz', input.time_zone, '--data', join(work, `agent-${name}`)], 180_000);
  let acked = 0;
  let events = 0;
  let used = { cpuS: Number.NaN, peakMiB: Number.NaN };
  try {
    while (performance.now() - t0 < 900_000) {
      const text = (await httpGet(`${agent.url}/metrics`)).text;
      acked = metric(text, 'perfpipe_bytes_acked_total');
      events = metric(text, 'perfpipe_events_total');
      if (acked >= input.bytes && events >= input.events) break;
      await sleep(20);
    }
    const seconds = (performance.now() - t0) / 1000;
    used = usage(agent.child.pid as number);
    return { seconds, ...used, acked, events, messages: await counter.count([familyTopic(prefix, 'tj')]) };
  } finally {
    await agent.stop('SIGTERM');
  }
}

/**
 * `pipeline` lines (e.g. `max_in_flight_per_file: 4`) and `bus` lines (e.g. `compression: none`) try the agent's
 * alternatives against the same rsyslog rounds.
 */
export async function run(o: { sizeMb?: number; rounds?: number; pipeline?: string[]; bus?: string[] } = {}): Promise<BenchResult> {
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
    const found = ensureRsyslog();
    if ('why' in found) notes.push(`no rsyslog comparison: ${found.why}`);
    const ours: PerfpipeShip[] = [];
    const theirs: number[] = [];
    const ratios: number[] = [];
    const theirsLz4: number[] = [];
    const ratiosLz4: number[] = [];
    for (let round = 0; round < (o.rounds ?? 3); round++) {
      const r = await shipWithPerfpipe(input, broker.brokers, work, counter, `r${round}`, o.pipeline ?? [], o.bus ?? []);
      ok &&= r.acked === input.bytes && r.events === input.events && r.messages > 0;
      ours.push(r);
      notes.push(`round ${round + 1}: perfpipe agent ${r.acked} of ${input.bytes} bytes and ${r.events} of ${input.events} events acknowledged in ${r.seconds.toFixed(2)} s, `
        + `${r.messages} messages, ${r.cpuS.toFixed(1)} CPU s, peak RSS ${r.peakMiB.toFixed(0)} MiB`);
      if ('why' in found) continue;
      const topic = `bench.rsyslog${round}.tj`;
      // As many partitions as perfpipe's topic (the bus default, 6): the same broker work per message.
      await counter.ensure(topic, 6);
      const t = await shipWithRsyslog(found.rsyslog, { work: join(work, `rsyslog${round}`), glob: join(input.dir, '*', '*.log'), brokers: broker.brokers, topic, lines, counter });
      ok &&= !t.timedOut && t.messages === lines;
      theirs.push(t.seconds);
      ratios.push(t.seconds / r.seconds);
      notes.push(`round ${round + 1}: rsyslog ${found.rsyslog.version} ${t.messages} messages for ${lines} lines in ${t.seconds.toFixed(2)} s${t.timedOut ? ' (timed out)' : ''}, ${t.cpuS.toFixed(1)} CPU s`);
      const lz4Topic = `bench.rsyslog${round}lz4.tj`;
      await counter.ensure(lz4Topic, 6);
      const z = await shipWithRsyslog(found.rsyslog, { work: join(work, `rsyslog${round}lz4`), glob: join(input.dir, '*', '*.log'), brokers: broker.brokers, topic: lz4Topic, lines, counter, codec: 'lz4' });
      ok &&= !z.timedOut && z.messages === lines;
      theirsLz4.push(z.seconds);
      ratiosLz4.push(z.seconds / r.seconds);
      notes.push(`round ${round + 1}: rsyslog with compression.codec=lz4 ${z.messages} messages in ${z.seconds.toFixed(2)} s${z.timedOut ? ' (timed out)' : ''}, ${z.cpuS.toFixed(1)} CPU s`);
    }
    const seconds = median(ours.map((r) => r.seconds));
    figures.push(
      { name: 'perfpipe agent TJ → Kafka (whole process: tail + parse + encode + produce, acked), median', value: mb / seconds, unit: 'MB/s' },
      { name: 'perfpipe agent TJ → Kafka, median', value: input.events / seconds, unit: 'events/s' },
      { name: 'perfpipe agent per CPU second', value: mb / median(ours.map((r) => r.cpuS)), unit: 'MB/s' },
      { name: 'perfpipe agent peak RSS, median', value: median(ours.map((r) => r.peakMiB)), unit: 'MiB' },
    );
    if (theirs.length > 0) {
      figures.push(
        { name: 'rsyslog imfile → omkafka (raw lines, acked), median', value: mb / median(theirs), unit: 'MB/s' },
        { name: 'perfpipe / rsyslog (MB/s of the same input, median of the rounds\' ratios)', value: median(ratios), unit: '×' },
        { name: 'rsyslog omkafka with compression.codec=lz4, median', value: mb / median(theirsLz4), unit: 'MB/s' },
        { name: 'perfpipe / rsyslog with lz4 (median of the rounds\' ratios)', value: median(ratiosLz4), unit: '×' },
      );
    }
    notes.push(`load average at end ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  } finally {
    await counter.close();
    await stopBroker(broker.port);
    rmSync(work, { recursive: true, force: true });
  }
  return { bench: 'tj-kafka-ship', input: { bytes: input.bytes, events: input.events, lines, files: files.length, ...(o.pipeline?.length ? { pipeline: o.pipeline.join('; ') } : {}) }, figures, ok, notes };
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { 'size-mb': { type: 'string' }, rounds: { type: 'string' }, pipeline: { type: 'string', multiple: true }, bus: { type: 'string', multiple: true } } });
  const r = await run({ sizeMb: Number(values['size-mb'] ?? 100), rounds: Number(values.rounds ?? 3), pipeline: values.pipeline ?? [], bus: values.bus ?? [] });
  console.log(formatTable(['bench', 'figure', 'value', 'unit'], figureRows(r)));
  for (const note of r.notes ?? []) console.log(`note: ${note}`);
  if (!r.ok) process.exitCode = 1;
}
