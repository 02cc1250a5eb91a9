// `npm run bench`: runs every registered bench in this process, one after another, prints one table and writes
// bench/results.json with the machine it ran on. Add a bench by adding it to BENCHES. `run.js NAME…` runs only those
// benches and keeps the other benches' last results in the file (each result says when it was measured).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { arch, cpus, platform, release, totalmem } from 'node:os';
import { benchResultsFile } from './bench-paths.js';
import { type BenchResult, figureRows, formatTable } from './figures.js';
import { run as runTjParse } from './tj-parse.js';
import { run as runPgParse } from './pg-parse.js';
import { run as runTjIngest } from './tj-ingest.js';
import { run as runTjEngineCeiling } from './tj-engine-ceiling.js';
import { run as runAlertLatency } from './alert-latency.js';
import { run as runKafkaE2e } from './kafka-e2e.js';
import { run as runRunVisibility } from './run-visibility.js';
import { run as runTjKafkaShip } from './tj-kafka-ship.js';
import { run as runTjIngestScale } from './tj-ingest-scale.js';
import { run as runParseCli } from './parse-cli.js';
import { run as runEngineDoors } from './engine-doors.js';
import { run as runPgActivityCost } from './pg-activity-cost.js';
import { run as runStoreFootprint } from './store-footprint.js';
import { run as runClickHouseHttp } from './clickhouse-http.js';
import { run as runLockReports } from './lock-reports.js';
import { run as runSoak } from './soak.js';
import { run as runReportScale } from './report-scale.js';
import { run as runReportWhyScale } from './report-why-scale.js';

interface Bench {
  name: string;
  run: () => Promise<BenchResult>;
  /** Runs only when named on the command line (it takes many minutes). */
  onlyWhenNamed?: boolean;
}

const BENCHES: Bench[] = [
  // Whole `perfpipe parse tj|pg|atop` processes beside a read + decode + header-regex pass and pgBadger (issue #14).
  { name: 'parse-cli', run: () => runParseCli({ tjSizeMb: 200, pgSizeMb: 100, atopSizeMb: 50, rounds: 3 }) },
  // The parsers in-process, without the CLI's output (what parse-cli's processes spend beyond printing).
  { name: 'tj-parse', run: () => runTjParse({ sizeMb: 200 }) },
  { name: 'pg-parse', run: () => runPgParse({ sizeMb: 200 }) },
  // Whole `perfpipe ingest --tj` beside the read + decode ceiling over the same files, and its peak RSS (issue #14).
  { name: 'tj-ingest', run: () => runTjIngest({ sizeMb: 200, rounds: 3 }) },
  // The engine's own insert rate for the same rows, nothing of perfpipe's in the timed loop: what tj-ingest can reach here.
  { name: 'tj-engine-ceiling', run: () => runTjEngineCeiling({ sizeMb: 200 }) },
  // Doors into the engine (formats, rawInsert, file(), Arrow) and batch sizes, the same rows in fresh engines
  // (`node dist/bench/engine-doors.js --full` for table designs and dedup alternatives too).
  { name: 'engine-doors', run: () => runEngineDoors({ sizeMb: 100, repeats: 2 }) },
  { name: 'alert-latency', run: () => runAlertLatency({ count: 40 }) },
  // agent → Kafka → sink against `perfpipe ingest` on the same tree, and visibility latency at 10k events/s.
  { name: 'kafka-e2e', run: () => runKafkaE2e({ sizeMb: 50, rate: 10_000, seconds: 20 }) },
  // The same visibility load on the embedded default, `perfpipe run` (issue #14: under 1 s at p99 both ways).
  { name: 'run-visibility', run: () => runRunVisibility({ sizeMb: 50, rate: 10_000, seconds: 20 }) },
  // Issue #14's bar: `perfpipe agent` TJ file → Kafka (parsing included) at ≥ 1.0× rsyslog imfile → omkafka.
  { name: 'tj-kafka-ship', run: () => runTjKafkaShip({ sizeMb: 100 }) },
  // Issue #16: the pg_activity sampler's round trip and CPU (perfpipe's and its server backend's) per sample against
  // a plain SELECT 1 round trip in the same run, 60 sessions of which a third active and a tenth blocked.
  { name: 'pg-activity-cost', run: () => runPgActivityCost({ backends: 60, samples: 300 }) },
  // Issue #26: bytes per event on disk (system.parts) of a simulated load test, for docs/deploy.md's capacity model.
  { name: 'store-footprint', run: () => runStoreFootprint({ users: 40, durationS: 600, rate: 400 }) },
  // Issue 27: `perfpipe serve`'s RSS during a 10M-row SELECT, HTTP ingest against the embedded ingest (bar ≥ 0.5×),
  // and the HTTP ingest's rate while heavy queries run on the same serve.
  { name: 'clickhouse-http', run: () => runClickHouseHttp({ sizeMb: 50, rounds: 2 }) },
  // Issue #28: every report over an 11-hour run's store (whole run, an hour, 10 minutes); 2M events here, and the
  // 10M and 100M stores when named (the 100M store takes an hour or more to build once into bench/work).
  { name: 'lock-reports', run: () => runLockReports({ sizes: [2_000_000], rounds: 3 }) },
  { name: 'lock-reports-scale', run: () => runLockReports({ sizes: [10_000_000, 100_000_000], rounds: 3 }), onlyWhenNamed: true },
  // Issue #28 item 5, short: `perfpipe run` under a live simulated load test for 4 minutes, RSS held to minute 1's.
  { name: 'soak', run: () => runSoak({ minutes: 4, rate: 3000, users: 300, referenceMinute: 1, sampleS: 5, reportEveryS: 60, keepFiles: false }) },
  // The whole soak: an hour at 28,000 events/s, about 100M TJ events (`node dist/bench/soak.js`, bench/soak.ts).
  { name: 'soak-hour', run: async () => ({ ...(await runSoak({ minutes: 60, rate: 28_000, users: 300, referenceMinute: 10, sampleS: 10, reportEveryS: 300, keepFiles: false })), bench: 'soak-hour' }), onlyWhenNamed: true },
  // Issue #7 item 4: ingest rate and peak RSS at 1 GB and 10 GB (about 15 minutes).
  { name: 'tj-ingest-scale', run: () => runTjIngestScale({ sizesMb: [1000, 10_000] }), onlyWhenNamed: true },
  // Issue #25: report sql and report errors at 10M and 30M generated TJ events, beside the scan the rollups replace.
  { name: 'report-scale', run: () => runReportScale({ events: [10_000_000, 30_000_000] }), onlyWhenNamed: true },
  { name: 'report-why-scale', run: () => runReportWhyScale({ events: [10_000_000] }), onlyWhenNamed: true },
];

function machine(): Record<string, string | number> {
  const cpuList = cpus();
  return {
    cpu_model: cpuList[0]?.model ?? 'unknown',
    cores: cpuList.length,
    memory_bytes: totalmem(),
    os: `${platform()} ${release()} ${arch()}`,
    node: process.version,
    date: new Date().toISOString(),
  };
}

const only = process.argv.slice(2);
const results: BenchResult[] = [];
for (const bench of BENCHES) {
  if (only.length > 0 ? !only.includes(bench.name) : bench.onlyWhenNamed) continue;
  console.error(`running ${bench.name}…`);
  try {
    results.push({ ...(await bench.run()), measured_at: new Date().toISOString() });
  } catch (e) {
    // One bench that throws is a failed check, not the end of the run: the others still measure.
    console.error(e);
    results.push({ bench: bench.name, input: {}, figures: [], ok: false, notes: [`threw: ${(e as Error).message.slice(0, 500)}`], measured_at: new Date().toISOString() });
  }
}
const info = machine();
console.log(`${info.cpu_model} × ${info.cores}, ${info.node}, ${info.date}`);
console.log(formatTable(['bench', 'figure', 'value', 'unit'], results.flatMap(figureRows)));
for (const r of results) {
  console.log(`${r.bench}: input ${Object.entries(r.input).map(([k, v]) => `${k}=${v}`).join(' ')}${r.ok ? '' : '  CHECK FAILED'}`);
  for (const note of r.notes ?? []) console.log(`  note: ${note}`);
}
// A run replaces only the results of the benches it ran (a full run skips the long ones and keeps their last figures).
const previous: BenchResult[] = existsSync(benchResultsFile())
  ? ((JSON.parse(readFileSync(benchResultsFile(), 'utf8')) as { results?: BenchResult[] }).results ?? []) : [];
const ran = new Set(results.map((r) => r.bench));
const kept = BENCHES.flatMap((b) => (ran.has(b.name) ? results.filter((r) => r.bench === b.name) : previous.filter((r) => r.bench === b.name)));
writeFileSync(benchResultsFile(), `${JSON.stringify({ machine: info, results: kept }, null, 2)}\n`);
console.log(`wrote ${benchResultsFile()}`);
if (results.some((r) => !r.ok)) process.exitCode = 1;
