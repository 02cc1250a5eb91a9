// Every `/metrics` page the CLI serves (`run`, `agent`, `sink`) against the real Prometheus tools: each passes
// `promtool check metrics` (the text format and its naming conventions), and a real Prometheus 2.42 scrapes all
// three (`up` is 1) and stores perfpipe's counters with the values the pipeline reached. Our own reading of the
// format is not the judge.
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBroker, stopBroker, type Broker } from './support/kafka-broker.js';
import { httpGet, startDaemon, storedIn, waitFor, type Daemon } from './support/daemon.js';
import { testIf } from './support/prerequisites.js';
import { MISSING_PROMETHEUS, promtoolCheck, startPrometheus } from './support/prometheus-tools.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-metrics-prom-'));
const daemons: Daemon[] = [];
let broker: Broker | undefined;
const promTest = testIf(MISSING_PROMETHEUS, { serial: true });

test.after.always(async () => {
  await Promise.all(daemons.map((d) => d.stop('SIGKILL')));
  if (broker) await stopBroker();
  rmSync(work, { recursive: true, force: true });
});

async function daemon(args: string[]): Promise<Daemon> {
  const d = await startDaemon(args);
  daemons.push(d);
  return d;
}

/** A TJ location with one process folder and `n` CALL events in one hour file. */
function journal(name: string, n: number): string {
  const loc = join(work, name);
  mkdirSync(join(loc, 'rphost_1'), { recursive: true });
  const lines = Array.from({ length: n }, (_, i) => `00:${String(i % 60).padStart(2, '0')}.000001-${100 + i},CALL,1,Usr=u${i}\n`);
  writeFileSync(join(loc, 'rphost_1', '26113014.log'), lines.join(''));
  return loc;
}

const metricsOf = async (d: Daemon): Promise<string> => {
  const page = await httpGet(`${d.url}/metrics`);
  if (page.status !== 200) throw new Error(`GET ${d.url}/metrics answered ${page.status}`);
  return page.text;
};

promTest('the run, agent and sink /metrics pages pass promtool check metrics, and a real Prometheus scrapes all three', async (t) => {
  broker = await startBroker();
  const config = join(work, 'kafka.yaml');
  writeFileSync(config, ['bus:', '  type: kafka', `  brokers: ["${broker.brokers[0]}"]`, '  topic_prefix: "prom."', '  group_id: "prom-sink"', 'pipeline:', '  poll_interval_ms: 200', ''].join('\n'));
  const run = await daemon(['run', '--tj', journal('run-tj', 3), '--tz', 'UTC', '--data', join(work, 'run')]);
  const sinkData = join(work, 'sink');
  const sink = await daemon(['sink', '--config', config, '--data', sinkData]);
  const agent = await daemon(['agent', '--config', config, '--tj', journal('agent-tj', 5), '--tz', 'UTC', '--data', join(work, 'agent')]);
  // Counters with their labels appear once there was something to count: let both pipelines carry their events.
  await waitFor(async () => (await storedIn(sinkData)).unique === 5, 'the agent\'s 5 events in the sink', 90_000, 500);
  await waitFor(async () => /^perfpipe_rows_inserted_total\{table="tj_events"\} 3$/m.test(await metricsOf(run)), 'the run\'s 3 rows stored', 60_000, 200);

  const pages = { run, agent, sink };
  for (const [name, d] of Object.entries(pages)) {
    const text = await metricsOf(d);
    t.regex(text, /^# TYPE perfpipe_/m, `${name} serves perfpipe metrics`);
    t.deepEqual(promtoolCheck(text), { code: 0, output: '' }, `promtool check metrics on the ${name} page`);
  }

  const instance = (d: Daemon): string => new URL(d.url).host;
  const prometheus = await startPrometheus(Object.values(pages).map(instance));
  t.teardown(() => prometheus.close());
  await waitFor(async () => (await prometheus.query('up{job="perfpipe"} == 1')).length === 3, 'Prometheus to scrape all three pages', 30_000, 250);
  const up = await prometheus.query('up{job="perfpipe"}');
  t.deepEqual(up.map((s) => [s.metric.instance, s.value[1]]).sort(), Object.values(pages).map((d) => [instance(d), '1']).sort());

  const byInstance = async (expr: string): Promise<Record<string, string>> =>
    Object.fromEntries((await prometheus.query(expr)).map((s) => [s.metric.instance, s.value[1]]));
  t.deepEqual(await byInstance('perfpipe_events_total{source="tj"}'), { [instance(run)]: '3', [instance(agent)]: '5' });
  t.deepEqual(await byInstance('perfpipe_rows_inserted_total{table="tj_events"}'), { [instance(run)]: '3', [instance(sink)]: '5' });
  t.deepEqual(await byInstance('perfpipe_sink_events_out_total'), { [instance(sink)]: '5' });
});
