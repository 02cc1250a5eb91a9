// A real PostgreSQL writes the logs: row-lock chains of 3 sessions, a deadlock, a lock timeout, a statement timeout,
// temp files and slow statements, in English, in Russian and with a rich log_line_prefix (one cluster, the phases
// switched by log_directory). `perfpipe ingest --pg` must store the episodes the test caused, and on the English log
// agree with pgBadger (the oracle) on the number and total ms of acquired lock waits and on temp files.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from './support/cli.js';
import { pgBinDir, removeCluster, startPgCluster, type PgCluster } from './support/pg-cluster.js';

const bin = pgBinDir();
const RICH = "'%m [%p] %q%u@%d/%a %h '";
const PHASES = ['en', 'ru', 'rich'] as const;
type Phase = (typeof PHASES)[number];
let cluster: PgCluster | undefined;
const skipped = new Map<Phase, string>();

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const logDir = (p: Phase): string => join(cluster?.dir ?? '', `log-${p}`);

function russianLocale(): boolean {
  const has = (): boolean => execFileSync('locale', ['-a']).toString().split('\n').some((l) => /^ru_RU\.utf-?8$/i.test(l));
  if (has()) return true;
  try { execFileSync('localedef', ['-i', 'ru_RU', '-f', 'UTF-8', 'ru_RU.UTF-8'], { stdio: 'pipe' }); } catch { return false; }
  return has();
}

/**
 * Every session waits for one common instant (pg_sleep_until), so psql start-up jitter does not matter; after it,
 * times in seconds. Expected per phase: acquired 3 (chain B on the transaction, chain C on the tuple, the deadlock
 * survivor), deadlock 1, lock_timeout 1, statement_timeout 1.
 */
async function scenario(c: PgCluster): Promise<void> {
  const at = `SELECT pg_sleep_until(to_timestamp(${(Date.now() + 1500) / 1000}))`;
  const s = (app: string, ...cmds: string[]): Promise<string> => c.psql([at, ...cmds], { PGAPPNAME: app });
  await Promise.all([
    s('chainA', 'BEGIN', 'UPDATE t SET v = v + 1 WHERE id = 1', 'SELECT pg_sleep(1.2)', 'COMMIT'),
    s('chainB', 'SELECT pg_sleep(0.3)', 'UPDATE t SET v = v + 1 WHERE id = 1'),
    s('chainC', 'SELECT pg_sleep(0.6)', 'UPDATE t SET v = v + 1 WHERE id = 1'),
    s('dlLeft', 'BEGIN', 'UPDATE t SET v = 1 WHERE id = 2', 'SELECT pg_sleep(0.3)', 'UPDATE t SET v = 1 WHERE id = 3', 'COMMIT'),
    s('dlRight', 'BEGIN', 'UPDATE t SET v = 1 WHERE id = 3', 'SELECT pg_sleep(0.8)', 'UPDATE t SET v = 1 WHERE id = 2', 'COMMIT'),
    s('ltHolder', 'BEGIN', 'UPDATE t SET v = 1 WHERE id = 4', 'SELECT pg_sleep(1.5)', 'COMMIT'),
    s('impatient', 'SELECT pg_sleep(0.3)', "SET lock_timeout = '500ms'", 'UPDATE t SET v = 2 WHERE id = 4'),
    s('stHolder', 'BEGIN', 'UPDATE t SET v = 1 WHERE id = 5', 'SELECT pg_sleep(1.5)', 'COMMIT'),
    s('stmtTo', 'SELECT pg_sleep(0.3)', "SET statement_timeout = '600ms'", 'UPDATE t SET v = 2 WHERE id = 5'),
    s('sorter', "SET work_mem = '64kB'", 'SELECT count(*) FROM (SELECT g FROM generate_series(1, 100000) g ORDER BY g DESC) s', 'SELECT pg_sleep(0.25)'),
  ]);
}

async function waitForFile(dir: string): Promise<void> {
  for (let i = 0; i < 100 && !(existsSync(dir) && readdirSync(dir).length > 0); i++) await sleep(100);
}

test.before(async () => {
  if (bin === null) return;
  cluster = startPgCluster(bin, {
    logging_collector: 'on', log_directory: "'log'", log_filename: "'postgresql-%Y-%m-%d_%H%M%S.log'",
    log_lock_waits: 'on', deadlock_timeout: "'100ms'", log_min_duration_statement: '0', log_temp_files: '0',
    lc_messages: "'C'", autovacuum: 'off', log_checkpoints: 'off', shared_buffers: "'16MB'",
  });
  await cluster.psql(['CREATE TABLE t (id int PRIMARY KEY, v int)', 'INSERT INTO t SELECT g, 0 FROM generate_series(1, 6) g']);
  const ru = russianLocale();
  for (const phase of PHASES) {
    if (phase === 'ru' && !ru) { skipped.set(phase, 'no ru_RU.UTF-8 locale and localedef could not make it'); continue; }
    await cluster.configure({
      log_directory: `'${logDir(phase)}'`, lc_messages: phase === 'ru' ? "'ru_RU.UTF-8'" : "'C'",
      log_line_prefix: phase === 'rich' ? RICH : "'%m [%p] '",
    });
    await waitForFile(logDir(phase));
    await scenario(cluster);
    if (phase === 'en') {
      // A rotation by the collector (a second file, named by the next second) in the middle of the phase's log.
      await sleep(1100);
      await cluster.psql(['SELECT pg_rotate_logfile()', 'SELECT pg_sleep(0.25)']);
    }
    await sleep(300);
  }
  cluster.stop();
});
test.after.always(() => {
  cluster?.stop();
  removeCluster(cluster);
});

async function sql<T>(data: string, query: string): Promise<T[]> {
  const r = await runCli(['sql', query, '--data', data, '--format', 'json']);
  if (r.code !== 0) throw new Error(r.stderr);
  return r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as T);
}

async function ingest(phase: Phase): Promise<string> {
  const data = join(cluster?.dir ?? '', `data-${phase}`);
  const prefix = phase === 'rich' ? RICH.slice(1, -1) : '%m [%p] ';
  const r = await runCli(['ingest', '--pg', logDir(phase), '--pg-prefix', prefix, '--data', data]);
  if (r.code !== 0) throw new Error(r.stderr);
  const files = phase === 'en' ? 2 : 1;
  if (!new RegExp(` and 0 ingest errors from ${files} files`).test(r.stdout)) throw new Error(r.stdout);
  return data;
}

const EXPECTED = { acquired: 3, deadlock: 1, lock_timeout: 1, statement_timeout: 1 };

for (const phase of PHASES) {
  test.serial(`${phase}: pg_lock_waits holds the chain, the deadlock and both timeouts the sessions caused`, async (t) => {
    if (bin === null) { t.log('no PostgreSQL in /usr/lib/postgresql (scripts/test-env.sh installs it as root)'); t.pass(); return; }
    const why = skipped.get(phase);
    if (why) { t.log(`skipped: ${why}`); t.pass(); return; }
    const data = await ingest(phase);
    const waits = await sql<{ application: string; outcome: string; mode: string; wait_ms: number | null; holders: number }>(data,
      'SELECT application, outcome, mode, wait_ms, toUInt8(length(holder_pids)) AS holders FROM pg_lock_waits ORDER BY application');
    const outcomes: Record<string, number> = {};
    for (const w of waits) outcomes[w.outcome] = (outcomes[w.outcome] ?? 0) + 1;
    t.deepEqual(outcomes, EXPECTED);
    const byApp = Object.fromEntries(waits.map((w) => [w.application, w]));
    const [log] = await sql<{ temp: string; slow: string; lang: string; who: [string, string, string] }>(data,
      "SELECT countIf(kind = 'temp_file') AS temp, countIf(kind = 'duration' AND duration_ms >= 250) AS slow, anyIf(lang, kind = 'lock_wait') AS lang, " +
      "anyIf([user, database, client], kind = 'lock_wait') AS who FROM pg_log");
    if (phase === 'rich') {
      // Only the rich prefix carries %a: the waiter's own application names the episode.
      t.like(byApp.chainB, { outcome: 'acquired', mode: 'ShareLock', holders: 1 });
      t.like(byApp.chainC, { outcome: 'acquired', mode: 'ExclusiveLock' });
      t.like(byApp.dlRight, { outcome: 'deadlock', wait_ms: null });
      t.like(byApp.impatient, { outcome: 'lock_timeout', wait_ms: null });
      t.like(byApp.stmtTo, { outcome: 'statement_timeout', wait_ms: null });
      t.deepEqual(log?.who, ['postgres', 'postgres', '[local]']);
    }
    for (const w of waits.filter((x) => x.outcome === 'acquired')) t.true((w.wait_ms ?? 0) >= 100, `${w.application} waited ${w.wait_ms} ms`);
    t.true(Number(log?.temp) >= 1, 'temp files');
    t.true(Number(log?.slow) >= 5, 'slow statements');
    t.is(log?.lang, phase === 'ru' ? 'ru' : 'en');
  });
}

test.serial('en: acquired lock waits and temp files agree with pgBadger on the same log', async (t) => {
  if (bin === null || !existsSync('/usr/bin/pgbadger')) { t.log('no PostgreSQL or pgbadger installed'); t.pass(); return; }
  const dir = logDir('en');
  const files = readdirSync(dir).map((f) => join(dir, f));
  const out = join(cluster?.dir ?? '', 'pgbadger.json');
  execFileSync('pgbadger', ['-q', '-j', '1', '-f', 'stderr', '--prefix', '%m [%p] ', '-o', out, ...files], { timeout: 120_000 });
  const report = JSON.parse(readFileSync(out, 'utf8')) as {
    lock_info: Record<string, Record<string, { count: number; duration: number }>>;
    tempfile_info: Record<string, { count: number }>;
  };
  let count = 0;
  let ms = 0;
  for (const modes of Object.values(report.lock_info)) for (const m of Object.values(modes)) { count += m.count; ms += m.duration; }
  const temp = Object.values(report.tempfile_info).reduce((a, x) => a + x.count, 0);
  t.is(count, EXPECTED.acquired);
  const data = join(cluster?.dir ?? '', 'data-en');
  const [ours] = await sql<{ n: string; ms: number; temp: string }>(data,
    "SELECT countIf(outcome = 'acquired') AS n, round(sumIf(wait_ms, outcome = 'acquired'), 3) AS ms, (SELECT count() FROM pg_log WHERE kind = 'temp_file') AS temp FROM pg_lock_waits");
  t.log(`pgBadger: ${count} lock waits, ${ms.toFixed(3)} ms, ${temp} temp files; perfpipe: ${ours?.n}, ${ours?.ms} ms, ${ours?.temp}`);
  t.is(Number(ours?.n), count);
  t.true(Math.abs((ours?.ms ?? 0) - ms) < 0.01);
  t.is(Number(ours?.temp), temp);
});
