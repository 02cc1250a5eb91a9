// `perfpipe demo`: the first thing a newcomer runs. Simulates a short 1C load test live (TJ files
// written as events happen), ingests it on the embedded default while it is being written, prints the
// reports and writes them as one HTML page (report.html). No server needed; the data stays in the demo
// folder for `perfpipe sql`.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Logger } from 'pino';
import { parseConfig } from '../../ingest/config/config.js';
import { startPipeline } from '../../daemon/pipeline.js';
import { systemTimeZone } from '../../ingest/source/tj/tj-source-config.js';
import { readDaemonFile } from '../../queries/daemon-file.js';
import { runReport } from '../../queries/reports/reports.js';
import { ConfigError } from '../../ingest/errors/errors.js';
import { writeTjLive } from '../../simulate/tj-live-writer.js';
import type { TjSimRecord } from '../../simulate/tj-generator.js';
import { keyOperationsFromCalls } from '../../simulate/apdex-from-calls.js';
import { encodeExport, writeApdexExport } from '../../simulate/apdex-export.js';
import { reportRows } from '../../queries/reports/reports.js';
import { apdexTable } from '../../queries/reports/apdex-report.js';
import { parseFlags } from '../flags/args.js';
import { START_RUN, STOP_RUN } from './runs.js';
import { windowParams } from '../../queries/reports/window-params.js';
import { collectReportPage, SECTIONS } from '../../queries/report-html/collect-page.js';
import { writeReportPage } from '../../queries/report-html/render/write-page.js';
import { digestAlert, type FiredAlert } from '../../ingest/alert/alert-digest.js';
import { alertsFiredText } from '../output/alerts-fired-output.js';
import { sleep } from '../../ingest/retry/sleep.js';

const USAGE = 'perfpipe demo [--dir DIR] [--seconds N] [--users N] [--seed N]';

function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new ConfigError(`--${name}: ${JSON.stringify(value)} is not a positive whole number`);
  return n;
}

export async function demoCommand(argv: string[], log: Logger): Promise<number> {
  const { values } = parseFlags(argv, {
    dir: { type: 'string' }, seconds: { type: 'string' }, users: { type: 'string' }, seed: { type: 'string' },
  }, USAGE);
  if (values.help) { process.stdout.write(`usage: ${USAGE}\n`); return 0; }
  const dir = resolve(values.dir ?? 'perfpipe-demo');
  const seconds = positiveInt('seconds', values.seconds, 20);
  const users = positiveInt('users', values.users, 30);
  const seed = positiveInt('seed', values.seed, 1);
  const tj = join(dir, 'tj');
  const apdex = join(dir, 'apdex');
  const data = join(dir, 'data');
  if (readDaemonFile(data)) throw new ConfigError(`a perfpipe run is using ${data}; stop it first`);
  // Only the demo's own subfolders are replaced: a fresh run every time.
  for (const d of [tj, apdex, data]) if (existsSync(d)) rmSync(d, { recursive: true, force: true });
  mkdirSync(apdex, { recursive: true });
  const tz = systemTimeZone();
  const out = process.stdout;
  out.write(`perfpipe demo: a ${seconds} s load test of ${users} users on 1C + PostgreSQL, simulated live.\n`);
  out.write(`  technological journal → ${relative(process.cwd(), tj) || tj}   embedded ClickHouse → ${relative(process.cwd(), data) || data}\n\n`);

  const config = parseConfig({
    data, sources: [{ type: 'tj', location: tj, tz, idle_finish_s: 5 }, { type: 'apdex', location: apdex }],
    pipeline: { poll_interval_ms: 250, segment_bytes: 1024 * 1024 },
    // Alerts go to the alerts table only: as log lines they broke into the progress line and, piped, into the
    // report (issue #15). They get their own section below.
    alerts: { channels: { log: false } },
  });
  const pipeline = await startPipeline(config, 'follow', log);
  const start = new Date();
  const stored = (): number => pipeline.metrics.total('perfpipe_events_total');
  let lastLine = 0;
  const calls: TjSimRecord[] = [];
  await pipeline.store.client.command({ query: START_RUN, query_params: { name: 'demo', at: start.getTime() } });
  const written = await writeTjLive(tj, {
    onRecord: (r) => { if (r.event.name === 'CALL') calls.push(r); },
    seed, start, durationMs: seconds * 1000, processes: 3, sessionsPerProcess: Math.max(1, Math.ceil(users / 3)),
    timeZone: tz, thinkMs: 1500, tickMs: 100,
    onTick: (r) => {
      const now = Date.now();
      if (now - lastLine < (out.isTTY ? 250 : 5000)) return;
      lastLine = now;
      const line = `  ${((now - start.getTime()) / 1000).toFixed(0).padStart(3)} s  written ${r.events} events, stored ${stored()}`;
      out.write(out.isTTY ? `\r${line}   ` : `${line}\n`);
    },
  });
  const deadline = Date.now() + 60_000;
  while (stored() < written.events && Date.now() < deadline) await sleep(100);
  const lag = Date.now() - (start.getTime() + seconds * 1000);
  out.write(`${out.isTTY ? '\r' : ''}  done: written ${written.events} events, stored ${stored()} (all stored ${Math.max(0, lag)} ms after the last write)\n\n`);

  // What the performance-evaluation subsystem would have exported for the same calls: the key-operation APDEX.
  const operations = keyOperationsFromCalls(calls);
  const exported = operations.reduce((n, o) => n + 1 + o.measurements.length, 0);
  writeFileSync(join(apdex, 'export.xml'), encodeExport(writeApdexExport(operations, { shape: 'attributes' })));
  const storedAll = written.events + exported;
  while (stored() < storedAll && Date.now() < deadline + 30_000) await sleep(100);
  const stopped = Date.now();
  await pipeline.store.client.command({ query: STOP_RUN, query_params: { name: 'demo', at: stopped } });
  // Every notice still in group_wait is sent now, so the section below lists all the alerts of the stored data.
  await pipeline.stopAlerts();
  // The lock episodes of the run, worked out to the end (docs/write-path.md §11).
  await pipeline.settleLocks();

  const params = { from: Math.floor(start.getTime() / 1000) - 3600, to: Math.ceil(Date.now() / 1000) + 3600, target_us: 1_500_000, limit: 10 };
  const client = pipeline.store.client;
  const apdexRows = await reportRows<Record<string, unknown>>(client, 'apdex', { from: `${params.from}.000`, to: `${params.to}.000` });
  out.write(`APDEX per key operation (performance-evaluation export of the same run; T per operation)\n${apdexTable(apdexRows)}\n`);
  const section = async (title: string, report: string): Promise<void> => {
    const text = await runReport(client, report, params, 'table');
    out.write(`${title}\n${text === '' ? '  (none in this run)\n' : text}\n`);
  };
  await section('Events by type', 'tj-event-summary');
  await section('Managed-lock waits by lock space', 'tj-lock-waits');
  await section('Lock timeouts and deadlocks: victim and culprit connections', 'tj-lock-victims');
  const fired = await reportRows<FiredAlert & { first_sent_at: string }>(client, 'alerts-fired', {
    from: (start.getTime() / 1000).toFixed(3), to: (Date.now() / 1000 + 60).toFixed(3), limit: 50,
  });
  const alerts = fired.map((a) => ({ ...digestAlert({ ...a, events: Number(a.events) }), firstSentAt: Date.parse(`${a.first_sent_at.replace(' ', 'T')}Z`) }));
  out.write(`Alerts fired during the run (as sent to the alert channels; all in the alerts table)\n${alertsFiredText(alerts, tz)}\n`);
  // The same page `report all --run demo --html FILE` writes: the run's window, every section with data.
  const run = { from: start.getTime() / 1000, to: stopped / 1000 };
  const page = await collectReportPage((name, extra = {}) => reportRows<Record<string, unknown>>(client, name, { ...windowParams(run), ...extra }), SECTIONS, {
    title: 'Load test report (perfpipe demo)', run: 'demo', window: run, timeZone: tz, generatedAt: Date.now(),
  });
  const html = writeReportPage(join(dir, 'report.html'), page);
  out.write(`HTML report (charts and tables, one file, opens offline): ${relative(process.cwd(), html.path) || html.path}\n\n`);
  await pipeline.stop();
  const rel = relative(process.cwd(), data) || data;
  out.write(`The data stays in ${rel} (the run is named "demo"). Ask it anything, e.g.\n  npx perfpipe sql "SELECT event, count() FROM tj_events GROUP BY event" --data ${rel}\n  npx perfpipe report apdex --run demo --data ${rel}\n  npx perfpipe report locks --run demo --format json --data ${rel}\n  npx perfpipe report all --run demo --html report.html --data ${rel}\n`);
  return stored() === storedAll ? 0 : 1;
}
