// ClickHouse's HTTP interface of `perfpipe serve` (docs/clickhouse-http.md), three figures of issue 27:
// - select: the daemon's RSS while a client reads a 10-million-row SELECT (bar: a few tens of MB above its RSS
//   before), streamed plain and in ClickHouse's compressed blocks (compress=1, what the JDBC driver asks);
// - ingest: `perfpipe ingest --tj DIR --clickhouse http://writer@…` into `perfpipe serve` against the embedded ingest
//   of the same tree in the same run, rounds alternating (bar ≥ 0.5×);
// - ingest under load: the same HTTP ingest while a heavy query runs again and again on the same serve, against
//   the HTTP ingest alone.
// Every process is bin/perfpipe.js (compiled, with perfpipe's node flags). Usage: npm run build &&
// node dist/bench/clickhouse-http.js [--size-mb 50] [--rounds 2]
import { readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateTj } from './generate-tj.js';
import { benchWorkDir, isMain, repoRoot } from './bench-paths.js';
import { type BenchResult, figureRows, formatTable } from './figures.js';
import { median, timed } from './process-stats.js';
import { ANALYST, PASSWORD_ENV, WRITER, ask, startServe, type Served } from '../test/support/clickhouse-serve.js';

const rssKiB = (pid: number): number => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
};

/** Reads a whole answer without keeping it: its bytes and its line count. */
function drain(url: string, sql: string, params: Record<string, string> = {}): Promise<{ bytes: number; lines: number; s: number; status: number }> {
  const u = new URL(url);
  u.searchParams.set('query', sql);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(u, { headers: { authorization: `Basic ${Buffer.from(`${ANALYST.user}:${ANALYST.password}`).toString('base64')}` } }, (res) => {
      let bytes = 0;
      let lines = 0;
      res.on('data', (d: Buffer) => {
        bytes += d.length;
        for (let i = d.indexOf(10); i >= 0; i = d.indexOf(10, i + 1)) lines++;
      });
      res.on('end', () => resolve({ bytes, lines, s: (performance.now() - t0) / 1000, status: res.statusCode ?? 0 }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function selectFigures(served: Served, notes: string[]): Promise<{ figures: BenchResult['figures']; ok: boolean }> {
  const pid = served.daemon.child.pid ?? 0;
  await drain(served.url, 'SELECT number, toString(number) FROM numbers(100000)');
  const before = rssKiB(pid);
  const sql = 'SELECT number, toString(number) AS s, number * 3 AS t FROM numbers(10000000)';
  const figures: BenchResult['figures'] = [];
  let ok = true;
  for (const [label, params] of [['plain TSV', {}], ['compress=1 (LZ4 blocks, CityHash128)', { compress: '1' }]] as const) {
    let peak = before;
    const poll = setInterval(() => { peak = Math.max(peak, rssKiB(pid)); }, 50);
    const r = await drain(served.url, sql, params);
    clearInterval(poll);
    ok &&= r.status === 200 && (label !== 'plain TSV' || r.lines === 10_000_000);
    notes.push(`${label}: ${r.bytes} bytes in ${r.s.toFixed(1)} s, daemon RSS ${(before / 1024).toFixed(0)} → peak ${(peak / 1024).toFixed(0)} MiB`);
    figures.push({ name: `10M-row SELECT, ${label}: daemon RSS increase (bar: a few tens of MB)`, value: (peak - before) / 1024, unit: 'MiB' });
    figures.push({ name: `10M-row SELECT, ${label}: answer read at`, value: r.bytes / 1e6 / r.s, unit: 'MB/s' });
  }
  figures.unshift({ name: 'daemon RSS before the SELECT', value: before / 1024, unit: 'MiB' });
  return { figures, ok };
}

export async function run(options: { sizeMb?: number; rounds?: number } = {}): Promise<BenchResult> {
  const input = generateTj({ sizeMb: options.sizeMb ?? 50, seed: 11 });
  const entry = join(repoRoot(), 'bin', 'perfpipe.js');
  const work = join(benchWorkDir(), 'clickhouse-http');
  const notes: string[] = [];
  let ok = true;
  const times = { embedded: [] as number[], http: [] as number[], loaded: [] as number[] };
  const ingest = async (target: string[], label: keyof typeof times, env: NodeJS.ProcessEnv = {}): Promise<void> => {
    const checkpoints = join(work, `checkpoints-${label}`);
    rmSync(checkpoints, { recursive: true, force: true });
    // timed() passes this process's environment on: the writer's password goes there for the one child.
    const saved = { ...process.env };
    Object.assign(process.env, env);
    const r = await timed(entry, ['ingest', '--tj', input.dir, '--tz', input.time_zone, ...(target.length ? ['--data', checkpoints, ...target] : ['--data', checkpoints])], true);
    process.env = saved;
    const stored = Number(/^ingested (\d+) events/m.exec(r.stdout)?.[1] ?? -1);
    ok &&= r.code === 0 && stored === input.events;
    if (r.code !== 0) notes.push(`${label} ingest failed: ${r.stderr.slice(-300)}`);
    times[label].push(r.s);
  };
  const served = await startServe();
  let selectResult: { figures: BenchResult['figures']; ok: boolean } = { figures: [], ok: false };
  try {
    selectResult = await selectFigures(served, notes);
    const target = ['--clickhouse', served.url.replace('http://', `http://${WRITER.user}@`)];
    const env = { ...PASSWORD_ENV, PERFPIPE_CLICKHOUSE_PASSWORD: WRITER.password };
    const truncate = async (): Promise<void> => { await ask(served.url, { user: WRITER, body: 'TRUNCATE TABLE IF EXISTS tj_events' }); };
    // What the serve holds, not what the ingest says it sent: a deduplicated insert would look like a fast one.
    const stored = async (label: string): Promise<void> => {
      const n = Number((await ask(served.url, { query: 'SELECT count() FROM tj_events' })).text.trim());
      if (n !== input.events) notes.push(`${label}: the serve holds ${n} events, not ${input.events}`);
      ok &&= n === input.events;
    };
    for (let round = 0; round < (options.rounds ?? 2); round++) {
      await ingest([], 'embedded');
      await truncate();
      await ingest(target, 'http', env);
      await stored('over HTTP');
      await truncate();
      // A heavy query again and again on the same serve while the HTTP ingest runs.
      let loading = true;
      let heavy = 0;
      const load = (async () => {
        while (loading) {
          await drain(served.url, 'SELECT sum(cityHash64(number)) FROM numbers(200000000)');
          heavy++;
        }
      })();
      await ingest(target, 'loaded', env);
      loading = false;
      await load;
      await stored('over HTTP beside heavy queries');
      notes.push(`round ${round + 1}: embedded ${times.embedded[round]?.toFixed(1)} s, over HTTP ${times.http[round]?.toFixed(1)} s, over HTTP beside ${heavy} heavy queries ${times.loaded[round]?.toFixed(1)} s`);
      await truncate();
    }
  } finally {
    await served.stop();
    rmSync(work, { recursive: true, force: true });
  }
  const rate = (s: number[]): number => input.events / median(s);
  return {
    bench: 'clickhouse-http',
    input: { bytes: input.bytes, events: input.events, select_rows: 10_000_000 },
    figures: [
      ...selectResult.figures,
      { name: 'ingest --tj into the embedded store (reference)', value: rate(times.embedded), unit: 'events/s' },
      { name: 'ingest --tj --clickhouse into perfpipe serve over HTTP', value: rate(times.http), unit: 'events/s' },
      { name: 'HTTP ingest / embedded ingest (bar ≥ 0.5)', value: median(times.embedded) / median(times.http), unit: '×' },
      { name: 'HTTP ingest while heavy queries run on the same serve', value: rate(times.loaded), unit: 'events/s' },
      { name: 'ingest rate under heavy queries / alone', value: median(times.http) / median(times.loaded), unit: '×' },
    ],
    ok: ok && selectResult.ok,
    notes,
  };
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { 'size-mb': { type: 'string' }, rounds: { type: 'string' } } });
  const r = await run({ sizeMb: values['size-mb'] ? Number(values['size-mb']) : undefined, rounds: values.rounds ? Number(values.rounds) : undefined });
  console.log(formatTable(['bench', 'figure', 'value', 'unit'], figureRows(r)));
  for (const n of r.notes ?? []) console.log(`  ${n}`);
  process.exitCode = r.ok ? 0 : 1;
}
