// A real PostgreSQL writes the same lock conflicts under a dozen log_line_prefix values, in English and in Russian,
// in several log_timezone zones, some logs starting with a server restart (postmaster lines without a session
// first), with users, databases and application names that hold spaces. The prefix found from each log's first
// lines must read the log exactly as the configured one does (every entry, every lock-wait episode), and the
// episodes must be the ones the sessions caused (test/support/pg-scenario.ts).
import test from 'ava';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { join } from 'node:path';
import { createPgParser } from '../parsers/pg/index.js';
import { createLockEpisodeBuilder } from '../parsers/pg/lock-episodes.js';
import { DETECT_HEAD_BYTES, detectPgLog } from '../parsers/pg/log-detect.js';
import type { PgEvent } from '../schemas/pg-event.js';
import { removeCluster, startPgCluster, type PgCluster } from './support/pg-cluster.js';
import { logFiles, markEnd, prepareScenario, scenario, SCENARIO_OUTCOMES, SCENARIO_SETTINGS, SCENARIO_WAITERS, waitFor } from './support/pg-scenario.js';
import { firstMissing, missingLocale, missingPostgres, pgBinDir, testIf } from './support/prerequisites.js';

interface Case {
  name: string;
  prefix: string;
  lc: 'C' | 'ru_RU.UTF-8';
  tz: string;
  /** Restart the server once the log directory is switched: the log begins with lines of processes without a session. */
  restart?: boolean;
  settings?: Record<string, string>;
}

// The escapes of issue 30 (%m %t %n %p %l %c %s %v %x %e %Q %b %u %d %a %r %h %q) in many orders and separators.
const CASES: Case[] = [
  { name: 'default', prefix: '%m [%p] ', lc: 'C', tz: 'UTC' },
  { name: 'debian-ru', prefix: '%m [%p] %q%u@%d ', lc: 'ru_RU.UTF-8', tz: 'Europe/Moscow', restart: true },
  { name: 'pgbadger', prefix: '%t [%p]: [%l-1] user=%u,db=%d,app=%a,client=%h ', lc: 'C', tz: 'Asia/Kolkata' },
  { name: 'rds', prefix: '%t:%r:%u@%d:[%p]:', lc: 'C', tz: 'UTC' },
  { name: 'queryid-ru', prefix: '%m [%p] [queryid=%Q] %q%u@%d ', lc: 'ru_RU.UTF-8', tz: 'UTC', settings: { compute_query_id: 'on' } },
  { name: 'all', prefix: '%m %p %l %c %s %v %x %e %Q %b %u %d %a %r %h ', lc: 'C', tz: 'America/Sao_Paulo', settings: { log_connections: 'on' } },
  { name: 'pipes-ru', prefix: '%n|%p|%l|%c|%s|%v|%x|%e|%Q|%b|%q%u|%d|%a|%r|%h|', lc: 'ru_RU.UTF-8', tz: 'Europe/Moscow' },
  { name: 'app-first', prefix: '< %m %a %u %d %p > ', lc: 'C', tz: 'UTC', settings: { log_connections: 'on', log_disconnections: 'on' } },
  { name: 'dash-ru', prefix: '%t [%p-%l] %q%u@%d ', lc: 'ru_RU.UTF-8', tz: 'Europe/Moscow' },
  { name: 'rich', prefix: '%m [%p] %q%u@%d %r %a ', lc: 'C', tz: 'UTC', restart: true, settings: { log_connections: 'on' } },
  { name: 'bracketed-ru', prefix: '%m [%p] %q[user=%u,db=%d,app=%a] ', lc: 'ru_RU.UTF-8', tz: 'UTC', restart: true },
  { name: 'sqlstate-first', prefix: '%e %m %p %x ', lc: 'C', tz: 'UTC' },
  { name: 'backend-first', prefix: '[%b] %m [%p] ', lc: 'C', tz: 'UTC' },
  { name: 'azure', prefix: '%t-%c-', lc: 'C', tz: 'UTC' },
  { name: 'keys', prefix: 'time=%t pid=%p line=%l xid=%x vxid=%v sess=%c user=%u db=%d app=%a host=%h ', lc: 'C', tz: 'UTC' },
];

const bin = pgBinDir();
const needs = (c: Case): string | null => firstMissing(missingPostgres(), c.lc === 'C' ? null : missingLocale(c.lc));
let cluster: PgCluster | undefined;
const logDir = (c: Case): string => join(cluster?.dir ?? '', `log-${c.name}`);

test.before(async () => {
  if (bin === null) return;
  cluster = startPgCluster(bin, { ...SCENARIO_SETTINGS, log_checkpoints: 'on' });
  await prepareScenario(cluster);
  await cluster.psql(['CREATE ROLE usr1cv8 LOGIN', 'CREATE DATABASE erp_2026 OWNER usr1cv8']);
  for (const c of CASES) {
    if (needs(c) !== null) continue;
    const dir = logDir(c);
    await cluster.configure({
      log_directory: `'${dir}'`, lc_messages: `'${c.lc}'`, log_line_prefix: `'${c.prefix}'`, log_timezone: `'${c.tz}'`,
      log_connections: 'off', log_disconnections: 'off', compute_query_id: 'auto', ...c.settings,
    });
    if (c.restart) { cluster.stop(); cluster.start(); }
    await waitFor(`a log file in ${dir}`, () => logFiles(dir).length > 0);
    // Sessions of another user and database, and application names with spaces and a colon.
    await cluster.psql(['SELECT 1 AS jdbc'], { PGAPPNAME: 'PostgreSQL JDBC Driver' });
    await cluster.psql(['SELECT 2 AS pgadmin'], { PGAPPNAME: 'pgAdmin 4 - DB:postgres' });
    await cluster.psql(['SELECT 3 AS erp'], { PGUSER: 'usr1cv8', PGDATABASE: 'erp_2026', PGAPPNAME: '1CV8C' });
    await scenario(cluster);
    await cluster.psql(['SELECT 4 AS erp'], { PGUSER: 'usr1cv8', PGDATABASE: 'erp_2026', PGAPPNAME: '1CV8C' });
    await markEnd(cluster, dir, `end of ${c.name}`);
  }
  cluster.stop();
});
test.after.always(() => {
  cluster?.stop();
  // PERFPIPE_KEEP_PG_LOGS=DIR keeps the logs written (to look at a case that failed).
  const keep = process.env.PERFPIPE_KEEP_PG_LOGS;
  if (keep && cluster) {
    for (const c of CASES) for (const f of logFiles(logDir(c))) {
      mkdirSync(join(keep, c.name), { recursive: true });
      copyFileSync(f, join(keep, c.name, basename(f)));
    }
  }
  removeCluster(cluster);
});

function read(bytes: Buffer, prefix: string): { events: PgEvent[]; episodes: ReturnType<ReturnType<typeof createLockEpisodeBuilder>['finish']> } {
  const p = createPgParser({ host: 'h', source: 'pg', file: 'f', file_key: 'k', offset: 0, format: 'stderr', prefix });
  const events = [...p.push(bytes).events, ...p.finish().events];
  const b = createLockEpisodeBuilder();
  return { events, episodes: [...b.push(events), ...b.finish()] };
}

for (const c of CASES) {
  testIf(needs(c), { serial: true })(`${c.name} (${c.prefix}): the prefix found reads the log as the configured one, with the episodes the sessions caused`, (t) => {
    // A restart can leave the shutdown in one file and the start in the next: each file is found on its own, as ingest does.
    const files = logFiles(logDir(c)).sort();
    const episodes = [];
    for (const file of files) {
      const bytes = readFileSync(file);
      const found = detectPgLog(bytes.subarray(0, DETECT_HEAD_BYTES), bytes.length <= DETECT_HEAD_BYTES);
      t.is(found.format, 'stderr');
      t.log(`found ${JSON.stringify(found.prefix)} for ${JSON.stringify(c.prefix)}: ${found.framed} of ${found.lines} lines`);
      const truth = read(bytes, c.prefix);
      const got = read(bytes, found.prefix ?? '');
      // The first entry read differently, rather than two lists of a hundred entries.
      const at = truth.events.findIndex((e, i) => JSON.stringify(e) !== JSON.stringify(got.events[i]));
      t.deepEqual(at < 0 ? null : got.events[at], at < 0 ? null : truth.events[at], `entry ${at} of ${truth.events.length}`);
      t.is(got.events.length, truth.events.length);
      t.deepEqual(got.episodes, truth.episodes);
      episodes.push(...got.episodes);
    }
    // What the sessions caused. Fifteen servers' worth of timed waits on a loaded machine: a wait the server did not
    // log in time (a lock timeout before deadlock_timeout's line) leaves one out; none may come out otherwise.
    const outcomes: Record<string, number> = {};
    for (const e of episodes) outcomes[e.outcome] = (outcomes[e.outcome] ?? 0) + 1;
    for (const [outcome, n] of Object.entries(outcomes)) t.true(n <= (SCENARIO_OUTCOMES[outcome as keyof typeof SCENARIO_OUTCOMES] ?? 0), `${n} ${outcome}`);
    t.true(episodes.length >= 5, `${episodes.length} episodes: ${JSON.stringify(outcomes)}`);
    if (c.prefix.includes('%a')) {
      for (const e of episodes) t.is(e.outcome as string | undefined, SCENARIO_WAITERS[e.application ?? ''], `${e.application}`);
    }
  });
}
