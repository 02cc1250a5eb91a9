// `perfpipe ingest --atop-raw DIR` and `run --atop-raw DIR` on raw logs written by the installed atop (`atop -w`):
// the stored samples are those `atop -r FILE -P …` prints, parsed and derived directly, without the since-boot
// ones; CPU figures equal atopsar's; a second ingest stores nothing; a log that grows, and gets an atop restart
// appended, adds only its new samples, each published once; `run` picks up a new daily file. Skipped without atop.
import test from 'ava';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AtopRecord } from '../schemas/atop-record.js';
import { createAtopParser } from '../parsers/atop/index.js';
import { deriveSample, groupSamples } from '../parsers/atop/derive.js';
import { ATOP_STORED_LABELS } from '../ingest/source/atop/atop-labels.js';
import { runCli } from './support/cli.js';
import { sinkQuery, startDaemon, waitFor, type Daemon } from './support/daemon.js';
import { missingPrograms, testIf } from './support/prerequisites.js';

const maybe = testIf(missingPrograms('atop', 'atopsar'), { serial: true });

const work = mkdtempSync(join(tmpdir(), 'perfpipe-atopraw-'));
let daemon: Daemon | undefined;
test.after.always(async () => {
  await daemon?.stop('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

const utc = { ...process.env, TZ: 'UTC' };
const sh = (cmd: string, args: string[]): string => {
  const r = spawnSync(cmd, args, { encoding: 'utf8', env: utc, timeout: 120_000, maxBuffer: 256 << 20 });
  if (r.status !== 0 && !(cmd === 'atop' && r.status === 7 && r.stderr === '')) throw new Error(`${cmd} ${args.join(' ')}: ${r.status} ${r.stderr}`);
  return r.stdout;
};

interface DirectSample { epoch: number; sinceBoot: boolean; records: number; busy: number | null }

/** The expectation, from outside perfpipe's source: `atop -r FILE -P LABELS` in one read, parsed and derived here. */
function direct(file: string): DirectSample[] {
  const parser = createAtopParser({ host: 'h', source: 'atop', file, file_key: 'k', offset: 0 });
  const records: AtopRecord[] = parser.push(Buffer.from(sh('atop', ['-r', file, '-P', ATOP_STORED_LABELS.join(',')]))).events;
  return groupSamples(records).map((s) => {
    const m = deriveSample(s)!;
    return { epoch: m.epoch, sinceBoot: m.since_boot, records: s.length, busy: m.cpu?.total.busy_pct ?? null };
  });
}

async function sql(data: string, query: string): Promise<Array<Record<string, string | number>>> {
  const r = await runCli(['sql', query, '--data', data, '--format', 'json']);
  if (r.code !== 0) throw new Error(r.stderr);
  return r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, string | number>);
}

const TABLES = ['atop_system', 'atop_cpu', 'atop_disks', 'atop_interfaces', 'atop_top_processes'];
async function tableCounts(data: string): Promise<number[]> {
  const [row] = await sql(data, `SELECT ${TABLES.map((t) => `(SELECT count() FROM ${t}) AS ${t}`).join(', ')}`);
  return TABLES.map((t) => Number(row![t]));
}

async function ingest(dir: string, data: string): Promise<number> {
  const r = await runCli(['ingest', '--atop-raw', dir, '--data', data]);
  if (r.code !== 0) throw new Error(r.stderr);
  const m = /^ingested (\d+) events and 0 ingest errors from \d+ files/.exec(r.stdout);
  if (m === null) throw new Error(`unexpected summary: ${r.stdout}`);
  return Number(m[1]);
}

maybe('ingest --atop-raw stores what atop -r -P prints without the since-boot sample, CPU as atopsar, and once only', async (t) => {
  const dir = join(work, 'once');
  mkdirSync(dir);
  const file = join(dir, 'atop_20261130');
  sh('atop', ['-w', file, '1', '6']);
  const expected = direct(file);
  t.is(expected.length, 6);
  t.deepEqual(expected.map((s) => s.sinceBoot), [true, false, false, false, false, false]);
  const data = join(work, 'once-data');

  t.is(await ingest(dir, data), expected.reduce((n, s) => n + s.records, 0), 'every record of every sample, published once');
  const system = await sql(data, 'SELECT toUnixTimestamp(ts) AS epoch, interval_s, cpu_busy_pct, nrcpu FROM atop_system ORDER BY ts');
  const rates = expected.filter((s) => !s.sinceBoot);
  t.deepEqual(system.map((r) => Number(r.epoch)), rates.map((s) => s.epoch));
  system.forEach((r, i) => t.true(Math.abs(Number(r.cpu_busy_pct) - rates[i]!.busy!) < 1e-9, `busy ${r.cpu_busy_pct} vs ${rates[i]!.busy}`));
  t.true(system.every((r) => Number(r.interval_s) <= 2), 'no row carries the since-boot interval (the uptime)');

  // atopsar reads the same raw file on its own; its figures are rounded to whole percents.
  const stored = new Map((await sql(data, `SELECT formatDateTime(ts, '%H:%i:%S') AS time, cpu, busy_pct, user_pct, nice_pct, system_pct,
    irq_pct, softirq_pct, steal_pct, guest_pct, iowait_pct, idle_pct FROM atop_cpu`)).map((r) => [`${r.time} ${r.cpu}`, r]));
  const nrcpu = Number(system[0]!.nrcpu);
  let time = '';
  let compared = 0;
  for (const line of sh('atopsar', ['-r', file, '-c']).split('\n')) {
    const words = line.trim().split(/\s+/);
    if (/^\d\d:\d\d:\d\d$/.test(words[0]!)) time = words.shift()!;
    if (words.length !== 10 || !/^(all|\d+)$/.test(words[0]!)) continue;
    const row = stored.get(`${time} ${words[0] === 'all' ? -1 : words[0]}`);
    if (row === undefined) { t.fail(`atopsar prints ${time} cpu ${words[0]}, perfpipe stored no such row`); continue; }
    const printed = words.slice(1).map(Number);
    const ours = ['user_pct', 'nice_pct', 'system_pct', 'irq_pct', 'softirq_pct', 'steal_pct', 'guest_pct', 'iowait_pct', 'idle_pct'].map((c) => Number(row[c]));
    ours.forEach((v, i) => t.true(Math.abs(v - printed[i]!) <= 0.5 + 1e-9, `${time} cpu ${words[0]} column ${i}: ${v} vs atopsar ${printed[i]}`));
    // busy = 100 − idle − wait, per CPU-equivalent for `all`; two printed figures, each within half a percent.
    const share = words[0] === 'all' ? nrcpu : 1;
    const busy = 100 - (printed[7]! + printed[8]!) / share;
    t.true(Math.abs(Number(row.busy_pct) - busy) <= 1 / share + 1e-9, `${time} cpu ${words[0]} busy ${row.busy_pct} vs atopsar ${busy}`);
    compared += 1;
  }
  t.is(compared, rates.length * (nrcpu + 1), 'atopsar printed every stored sample and core, and nothing else');

  const before = await tableCounts(data);
  t.true(before[0]! === 5 && before[1]! === 5 * (nrcpu + 1));
  t.is(await ingest(dir, data), 0, 'the second ingest publishes nothing');
  t.deepEqual(await tableCounts(data), before);
});

maybe('a raw log that grows, then gets an atop restart appended, adds only its new samples at each ingest', async (t) => {
  const dir = join(work, 'grow');
  mkdirSync(dir);
  const file = join(dir, 'atop_20261130');
  const data = join(work, 'grow-data');
  // 70 one-second samples span a minute boundary, so later reads begin mid-file with -b at a minute.
  const writer = spawn('atop', ['-w', file, '1', '70'], { stdio: 'ignore' });
  const written = new Promise((resolve) => writer.once('exit', resolve));
  t.teardown(() => { writer.kill('SIGKILL'); });
  const samplesNow = (): number => (existsSync(file) ? direct(file).length : 0);
  await waitFor(() => samplesNow() >= 8, '8 samples in the raw log', 60_000, 500);
  const n1 = await ingest(dir, data);
  const [m1] = await sql(data, 'SELECT toUnixTimestamp(max(ts)) AS m, count() AS c FROM atop_system');
  t.true(Number(m1!.c) >= 7);
  await waitFor(() => samplesNow() >= 45, '45 samples in the raw log', 90_000, 1000);
  const n2 = await ingest(dir, data);
  const [m2] = await sql(data, 'SELECT toUnixTimestamp(max(ts)) AS m, count() AS c FROM atop_system');
  t.true(n2 > 0 && Number(m2!.m) > Number(m1!.m), 'the second ingest added samples');
  await written;
  sh('atop', ['-w', file, '1', '3']); // a restart: atop appends a since-boot (RESET) sample mid-file
  const n3 = await ingest(dir, data);

  const expected = direct(file);
  t.is(expected.length, 73);
  t.deepEqual(expected.flatMap((s, i) => (s.sinceBoot ? [i] : [])), [0, 70], 'the file holds two since-boot samples');
  t.is(n1 + n2 + n3, expected.reduce((n, s) => n + s.records, 0), 'each record was published by exactly one ingest');
  t.true(n3 > 0);
  const stored = await sql(data, 'SELECT toUnixTimestamp(ts) AS epoch, interval_s, cpu_busy_pct FROM atop_system ORDER BY ts, interval_s');
  const rates = expected.filter((s) => !s.sinceBoot);
  t.deepEqual(stored.map((r) => Number(r.epoch)), rates.map((s) => s.epoch).sort((a, b) => a - b));
  t.true(stored.every((r) => Number(r.interval_s) <= 2), 'neither since-boot sample was stored as rates');
  const busy = new Map(rates.map((s) => [s.epoch, s.busy]));
  t.true(stored.every((r) => Math.abs(Number(r.cpu_busy_pct) - busy.get(Number(r.epoch))!) < 1e-9), 'busy % as a single direct read gives it');
  t.is(await ingest(dir, data), 0);
});

maybe('run --atop-raw follows a directory: a daily file created after start is read as atop writes it', async (t) => {
  const dir = join(work, 'follow');
  mkdirSync(dir);
  const data = join(work, 'follow-data');
  daemon = await startDaemon(['run', '--atop-raw', dir, '--data', data]);
  const file = join(dir, 'atop_20261201');
  const writer = spawn('atop', ['-w', file, '1', '6'], { stdio: 'ignore' });
  t.teardown(() => { writer.kill('SIGKILL'); });
  const count = async (): Promise<number> => Number((await sinkQuery<{ c: string }>(data, 'SELECT count() AS c FROM atop_system'))[0]?.c);
  await waitFor(async () => (await count()) >= 2, 'samples stored while atop -w still writes', 30_000, 300);
  t.is(writer.exitCode, null, 'atop -w was still writing when the first samples were stored');
  await new Promise((r) => writer.once('exit', r));
  await waitFor(async () => (await count()) === 5, 'all 5 interval samples', 30_000, 300);
  t.is(await daemon.stop('SIGTERM'), 0);
  daemon = undefined;
  const stored = await sql(data, 'SELECT toUnixTimestamp(ts) AS epoch FROM atop_system ORDER BY ts');
  t.deepEqual(stored.map((r) => Number(r.epoch)), direct(file).filter((s) => !s.sinceBoot).map((s) => s.epoch));
});
