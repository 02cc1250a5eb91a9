// Latency from a TTIMEOUT line appended to a watched TJ file to the webhook call, on the embedded default
// (`perfpipe run --alert-webhook`): p50/p99 over timeouts in distinct infobases (each its own alert group).
// Usage: npx tsx bench/alert-latency.ts [--count 40]   (or node dist/bench/alert-latency.js after tsc)
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { isMain, repoRoot } from './bench-paths.js';
import { type BenchResult, figureRows, formatTable, quantile } from './figures.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function run(options: { count?: number } = {}): Promise<BenchResult> {
  const count = options.count ?? 40;
  const work = mkdtempSync(join(tmpdir(), 'perfpipe-alert-bench-'));
  const arrived = new Map<string, number>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString(); });
    req.on('end', () => {
      for (const m of body.matchAll(/bench_ib_(\d+)/g)) if (!arrived.has(m[1] as string)) arrived.set(m[1] as string, Date.now());
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const loc = join(work, 'tj');
  mkdirSync(join(loc, 'rphost_1'), { recursive: true });
  const file = join(loc, 'rphost_1', '26113014.log');
  writeFileSync(file, '\uFEFF00:00.000001-1,CALL,1,Usr=warmup\n');
  const data = join(work, 'data');
  const child = spawn(process.execPath, [join(repoRoot(), 'dist', 'cli', 'entry.js'), 'run', '--tj', loc, '--tz', 'UTC', '--data', data, '--listen', '127.0.0.1:0', '--alert-webhook', url], { stdio: 'ignore', env: { ...process.env, PERFPIPE_LOG_LEVEL: 'error' } });
  try {
    while (!existsSync(join(data, 'daemon.json'))) await sleep(50);
    await sleep(2000);
    const sent = new Map<string, number>();
    for (let i = 0; i < count; i++) {
      const line = `01:${String(i % 60).padStart(2, '0')}.000000-0,TTIMEOUT,5,p:processName=bench_ib_${i},t:connectID=${100 + i},Usr=u,WaitConnections=7,Context=Форма.Записать\n`;
      sent.set(String(i), Date.now());
      appendFileSync(file, line);
      await sleep(250);
    }
    const deadline = Date.now() + 20_000;
    while (arrived.size < count && Date.now() < deadline) await sleep(50);
    const latencies = [...sent].flatMap(([k, t]) => (arrived.has(k) ? [(arrived.get(k) as number) - t] : [])).sort((a, b) => a - b);
    return {
      bench: 'alert-latency',
      input: { timeouts: count, spacing_ms: 250 },
      figures: [
        { name: 'TTIMEOUT appended → webhook, p50', value: quantile(latencies, 0.5), unit: 'ms' },
        { name: 'TTIMEOUT appended → webhook, p99', value: quantile(latencies, 0.99), unit: 'ms' },
        { name: 'TTIMEOUT appended → webhook, max', value: latencies[latencies.length - 1] ?? Number.NaN, unit: 'ms' },
      ],
      ok: latencies.length === count,
      notes: latencies.length === count ? [] : [`${count - latencies.length} of ${count} alerts did not arrive within 20 s`],
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    server.close();
    rmSync(work, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { count: { type: 'string' } } });
  const r = await run({ count: Number(values.count ?? 40) });
  console.log(formatTable(['bench', 'figure', 'value', 'unit'], figureRows(r)));
  for (const note of r.notes ?? []) console.log(`note: ${note}`);
}
