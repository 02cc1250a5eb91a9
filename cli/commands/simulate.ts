// `perfpipe simulate`: writes what a 1C load test on PostgreSQL leaves on disk (TJ, PostgreSQL log, atop, APDEX
// export) and expected.json, the figures perfpipe's reports must show for it (simulate/load-test.ts).
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isValidTimeZone } from '../../parsers/tj/index.js';
import { systemTimeZone } from '../../parsers/tj/zone-file.js';
import { writeLoadTest, type LoadTestOptions } from '../../simulate/load-test.js';
import type { Expected } from '../../simulate/load-expected.js';
import { checkPrefix, DEBIAN_PREFIX } from '../../simulate/pg-log-writer.js';
import { ConfigError } from '../../ingest/errors/errors.js';
import { parseFlags } from '../flags/args.js';
import { parseTimeFlag } from '../flags/report-window.js';

const USAGE = "perfpipe simulate --out DIR [--hosts 1] [--users 20] [--duration 5m] [--rate 200] [--seed 1] [--realtime] [--start TIME] [--tz ZONE] [--pg-prefix '%m [%p] %q%u@%d '] [--conflicts-per-minute 4] [--atop-interval 10]";

function positive(name: string, value: string | undefined, fallback: number, integer = true): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) throw new ConfigError(`--${name}: ${JSON.stringify(value)} is not a positive ${integer ? 'whole ' : ''}number`);
  return n;
}

/** `90`, `90s`, `5m`, `1h` → ms. */
export function parseDuration(value: string | undefined, fallbackMs: number): number {
  if (value === undefined) return fallbackMs;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  if (m === null || Number(m[1]) <= 0) throw new ConfigError(`--duration: ${JSON.stringify(value)} is not a duration; expected e.g. 90s, 5m or 1h`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] as 'ms' | 's' | 'm' | 'h' ?? 's'] ?? 1000;
  return Math.round(Number(m[1]) * unit);
}

export async function simulateCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags(argv, {
    out: { type: 'string' }, users: { type: 'string' }, duration: { type: 'string' }, rate: { type: 'string' }, seed: { type: 'string' },
    realtime: { type: 'boolean' }, start: { type: 'string' }, tz: { type: 'string' }, 'pg-prefix': { type: 'string' },
    'conflicts-per-minute': { type: 'string' }, 'atop-interval': { type: 'string' }, hosts: { type: 'string' },
  }, USAGE);
  if (values.help) { process.stdout.write(`usage: ${USAGE}\n`); return 0; }
  if (positionals.length > 0) throw new ConfigError(`unexpected argument ${JSON.stringify(positionals[0])}\nusage: ${USAGE}`);
  if (values.out === undefined) throw new ConfigError(`simulate: --out DIR is required\nusage: ${USAGE}`);
  const out = resolve(values.out);
  // Appending to an earlier run's files would mix two runs and void expected.json.
  if (existsSync(out) && readdirSync(out).length > 0) throw new ConfigError(`--out: ${out} is not empty; give a new or empty directory`);
  // The zone ingest assumes for a TJ tree without one (this machine's); written into tj/timezone.txt either way.
  const tz = values.tz ?? systemTimeZone();
  if (!isValidTimeZone(tz)) throw new ConfigError(`--tz: ${JSON.stringify(tz)} is not an IANA zone; expected e.g. "Europe/Moscow"`);
  const prefix = values['pg-prefix'] ?? DEBIAN_PREFIX;
  const bad = checkPrefix(prefix);
  if (bad !== null) throw new ConfigError(`--pg-prefix: ${bad}`);
  if (values.realtime && values.start !== undefined) throw new ConfigError('--realtime and --start exclude each other: a realtime run starts now');
  const durationMs = parseDuration(values.duration, 300_000);
  const hosts = positive('hosts', values.hosts, 1);
  const started = performance.now();
  const options = (dir: string, seed: number): LoadTestOptions => ({
    out: dir, timeZone: tz, pgPrefix: prefix, realtime: values.realtime ?? false,
    users: positive('users', values.users, 20), durationMs,
    rate: positive('rate', values.rate, 200, false), seed,
    conflictsPerMinute: positive('conflicts-per-minute', values['conflicts-per-minute'], 4, false),
    atopIntervalS: positive('atop-interval', values['atop-interval'], 10),
    ...(values.start !== undefined ? { start: new Date(parseTimeFlag('start', values.start) * 1000) } : {}),
  });
  const seed = positive('seed', values.seed, 1);
  if (hosts === 1) {
    const expected = await writeLoadTest(options(out, seed));
    process.stdout.write(`${summary(expected, durationMs)} in ${((performance.now() - started) / 1000).toFixed(1)} s → ${out} (expected.json)\n`);
    return 0;
  }
  // Several hosts: one load test per host in <out>/host-NN/ with its own seed and expected.json, as many 1C servers
  // (each with its database host's log and atop) would leave them; <out>/expected.json lists them with the totals.
  const names = Array.from({ length: hosts }, (_, i) => `host-${String(i + 1).padStart(2, '0')}`);
  const each = await Promise.all(names.map((name, i) => writeLoadTest(options(join(out, name), seed + i))));
  const total = (f: (e: Expected) => number): number => each.reduce((a, e) => a + f(e), 0);
  writeFileSync(join(out, 'expected.json'), `${JSON.stringify({
    hosts: names.map((name, i) => ({ name, dir: name, seed: seed + i })),
    tj: { events: total((e) => e.tj.events), bytes: total((e) => e.tj.bytes), files: total((e) => e.tj.files) },
    pg: { entries: total((e) => e.pg.entries) }, atop: { stored_samples: total((e) => e.atop.stored_samples) },
    apdex: { measurements: total((e) => e.apdex.operations.reduce((a, o) => a + o.n, 0)) },
  }, null, 2)}\n`);
  for (const [i, e] of each.entries()) process.stdout.write(`${names[i]}: ${summary(e, durationMs)}\n`);
  process.stdout.write(`${hosts} hosts, ${total((e) => e.tj.events)} TJ events in ${((performance.now() - started) / 1000).toFixed(1)} s → ${out} (expected.json per host and in total)\n`);
  return 0;
}

/** One line on what a load test wrote. The rate reached can fall short of --rate when too few users are asked for it. */
function summary(expected: Expected, durationMs: number): string {
  const rate = Math.round(expected.tj.events / (durationMs / 1000));
  return `simulated ${expected.tj.events} TJ events (${rate} events/s) in ${expected.tj.files} files (${(expected.tj.bytes / 1e6).toFixed(1)} MB), `
    + `${expected.pg.entries} PostgreSQL log entries, ${expected.atop.samples} atop samples, ${expected.apdex.operations.length} key operations; `
    + `${expected.timeouts.length} lock timeouts, ${expected.deadlocks.length} deadlocks, ${expected.waits.length} managed-lock waits, ${expected.pg_episodes.length} PostgreSQL lock waits`;
}
