// The PostgreSQL parser over real server output (../shared/corpus/pg). generated/: one PG 15.18 run written as
// stderr, csvlog and jsonlog at once; all three must give the same lock episodes, equal to EXPECTED.md's ground truth
// and to pgBadger's own figures (pgbadger.json). pgbadger/: pgBadger's fixtures parse cleanly, or (framings and
// envelopes we do not read) give one orphan event or one not_jsonlog error per line. Without the corpus they are
// reported skipped, and fail under CI=true (test/support/prerequisites.ts).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { createPgParser, type PgLogFormat } from '../parsers/pg/index.js';
import { createLockEpisodeBuilder } from '../parsers/pg/lock-episodes.js';
import { DETECT_HEAD_BYTES, detectPgLog } from '../parsers/pg/log-detect.js';
import { PgEventSchema, type PgEvent } from '../schemas/pg-event.js';
import { PgLockEpisodeSchema, type PgLockEpisode } from '../schemas/pg-lock-episode.js';
import type { IngestError } from '../schemas/ingest-error.js';
import { missingCorpus, testIf } from './support/prerequisites.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const corpus = resolve(repoRoot, '../shared/corpus');
const generated = join(corpus, 'pg', 'generated');
const fixtures = join(corpus, 'pg', 'pgbadger');
const corpusTest = testIf(missingCorpus('pg'));

/** Ground truth copied from generated/EXPECTED.md ("Lock-wait episodes in phase1"). */
const EXPECTED = {
  episodes: 77,
  byOutcome: { acquired: 74, deadlock: 1, lock_timeout: 1, statement_timeout: 1 },
  acquiredMs: 6495.846,
  stillWaitingLines: 76,
  extension: { count: 66, ms: 180.45 },
  /** Table rows of EXPECTED.md other than the ext1..ext8 sessions: app → [outcome, wait ms, holders, queue]. */
  rows: {
    sessB: ['acquired', 1199.185, [15932], [15937]], sessC: ['acquired', 899.809, [15937], [15961]],
    migrator: ['acquired', 1204.402, [16028, 16029], [16036]], reader3: ['acquired', 907.53, [16028, 16029], [16036, 16040]],
    dl_right: ['deadlock', null, [16049], []], dl_left: ['acquired', 202.594, [16053], [16049]],
    impatient: ['lock_timeout', null, [16061], [16065]], stmt_to: ['statement_timeout', null, [16078], [16083]],
    adv_waiter: ['acquired', 799.124, [16123], [16127]], cic: ['acquired', 1000.179, [16136], [16140]],
    locker: ['acquired', 102.573, [16383], [16407]],
  } as Record<string, [string, number | null, number[], number[]]>,
};
const PHASE1_PREFIX = '%m [%p]: [%l-1] user=%u,db=%d,app=%a,client=%h ';

function parseBytes(bytes: Buffer, format: PgLogFormat, prefix?: string, chunk = 65536) {
  const p = createPgParser({ host: 'lab', source: 'pg', file: 'f', file_key: 'k', offset: 0, format, prefix });
  const events: PgEvent[] = [];
  const errors: IngestError[] = [];
  for (let i = 0; i < bytes.length; i += chunk) {
    const o = p.push(bytes.subarray(i, i + chunk));
    events.push(...o.events);
    errors.push(...o.errors);
  }
  const o = p.finish();
  return { events: [...events, ...o.events], errors: [...errors, ...o.errors] };
}

function episodesOf(events: PgEvent[]): PgLockEpisode[] {
  const b = createLockEpisodeBuilder();
  return [...b.push(events), ...b.finish()];
}

const FORMATS: Array<[string, PgLogFormat]> = [['log', 'stderr'], ['csv', 'csvlog'], ['json', 'jsonlog']];
const phase1 = new Map<PgLogFormat, { events: PgEvent[]; errors: IngestError[]; episodes: PgLockEpisode[] }>();
function load(format: PgLogFormat) {
  let r = phase1.get(format);
  if (r === undefined) {
    const ext = FORMATS.find(([, f]) => f === format)?.[0] ?? 'log';
    // An odd chunk size puts chunk borders in the middle of lines, records and UTF-8 sequences.
    const parsed = parseBytes(readFileSync(join(generated, `postgresql-phase1.${ext}`)), format, PHASE1_PREFIX, 4093);
    r = { ...parsed, episodes: episodesOf(parsed.events) };
    phase1.set(format, r);
  }
  return r;
}

for (const [, format] of FORMATS) {
  corpusTest(`phase1 ${format}: every entry is a valid PgEvent, no ingest errors`, (t) => {
    const { events, errors } = load(format);
    t.deepEqual(errors, []);
    t.is(events.length, 2364); // EXPECTED.md: 2,364 json records, one per entry
    for (const e of events) {
      const r = PgEventSchema.safeParse(e);
      if (!r.success) return t.fail(`${e.origin.offset}: ${r.error.message}`);
    }
    t.is(events.filter((e) => e.lock?.phase === 'still_waiting').length, EXPECTED.stillWaitingLines);
  });

  corpusTest(`phase1 ${format}: lock episodes equal EXPECTED.md's ground truth`, (t) => {
    const { episodes } = load(format);
    t.is(episodes.length, EXPECTED.episodes);
    const by: Record<string, number> = {};
    for (const e of episodes) by[e.outcome] = (by[e.outcome] ?? 0) + 1;
    t.deepEqual(by, EXPECTED.byOutcome);
    const ms = episodes.reduce((s, e) => s + (e.wait_ms ?? 0), 0);
    t.is(Math.round(ms * 1000), Math.round(EXPECTED.acquiredMs * 1000));
    const ext = episodes.filter((e) => e.object_kind === 'extension');
    t.is(ext.length, EXPECTED.extension.count);
    t.is(Math.round(ext.reduce((s, e) => s + (e.wait_ms ?? 0), 0) * 1000), Math.round(EXPECTED.extension.ms * 1000));
    for (const [app, [outcome, wait, holders, queue]] of Object.entries(EXPECTED.rows)) {
      const ep = episodes.find((e) => e.application === app);
      t.deepEqual([ep?.outcome, ep?.wait_ms, ep?.holder_pids, ep?.queue_pids], [outcome, wait, holders, queue], app);
    }
    for (const e of episodes) t.true(PgLockEpisodeSchema.safeParse(e).success);
  });
}

corpusTest('phase1: stderr, csvlog and jsonlog give the same episodes', (t) => {
  const project = (e: PgLockEpisode) => ({ ...e, origin: undefined, session_id: undefined });
  const ref = load('stderr').episodes.map(project);
  t.deepEqual(load('csvlog').episodes.map(project), ref);
  t.deepEqual(load('jsonlog').episodes.map(project), ref);
});

corpusTest('phase1: holders are named by their last statements, an autovacuum holder by its table', (t) => {
  const { episodes } = load('stderr');
  // Read by hand from postgresql-phase1.log: sessA (15932) logs its duration line just before sessB's `acquired`;
  // autovacuum worker 16383 reports churn, then is cancelled on slowvac while `locker` waits (lines 827–853).
  t.deepEqual(episodes.find((e) => e.application === 'sessB')?.holder_statements, {
    15932: ['BEGIN; UPDATE accounts SET balance = balance - 10 WHERE id = 1; SELECT pg_sleep(1.5); COMMIT;'],
  });
  t.deepEqual(episodes.find((e) => e.application === 'locker')?.holder_statements, {
    16383: ['automatic vacuum of table "shop.public.churn": index scans: 0', 'automatic analyze of table "shop.public.churn"',
      'automatic vacuum of table "shop.public.slowvac"'],
  });
});

corpusTest('phase1: lock, temp-file and checkpoint figures equal pgBadger 12 on the same log', (t) => {
  const pgb = JSON.parse(readFileSync(join(generated, 'pgbadger.json'), 'utf8')) as {
    lock_info: { postgres: Record<string, Record<string, { count: number; duration: number } | number>> };
    tempfile_info: { postgres: { count: number; size: number; maxsize: number } };
    checkpoint_info: { starting: Record<string, number>; warning: number; wbuffer: number };
  };
  const { events, episodes } = load('stderr');
  // pgBadger's object names for DescribeLockTag kinds.
  const KIND: Record<string, string> = { virtual_transaction: 'virtual' };
  const mine: Record<string, Record<string, { count: number; duration: number }>> = {};
  for (const e of episodes.filter((x) => x.outcome === 'acquired')) {
    const mode = (mine[e.mode ?? ''] ??= {});
    const k = KIND[e.object_kind] ?? e.object_kind;
    const cell = (mode[k] ??= { count: 0, duration: 0 });
    cell.count++;
    cell.duration = Math.round((cell.duration + (e.wait_ms ?? 0)) * 1000) / 1000;
  }
  const theirs: typeof mine = {};
  for (const [mode, v] of Object.entries(pgb.lock_info.postgres)) {
    theirs[mode] = {};
    for (const [k, cell] of Object.entries(v)) if (typeof cell === 'object') (theirs[mode] as Record<string, unknown>)[k] = cell;
  }
  t.deepEqual(mine, theirs);

  const temp = events.filter((e) => e.kind === 'temp_file').map((e) => e.temp_file_bytes ?? 0);
  t.deepEqual({ count: temp.length, size: temp.reduce((a, b) => a + b, 0), maxsize: Math.max(...temp) },
    { count: pgb.tempfile_info.postgres.count, size: pgb.tempfile_info.postgres.size, maxsize: pgb.tempfile_info.postgres.maxsize });

  const starting: Record<string, number> = {};
  for (const e of events) {
    if (e.checkpoint?.phase === 'starting') starting[e.checkpoint.flags.join(' ')] = (starting[e.checkpoint.flags.join(' ')] ?? 0) + 1;
  }
  t.deepEqual(starting, pgb.checkpoint_info.starting);
  t.is(events.filter((e) => e.checkpoint?.phase === 'too_frequent').length, pgb.checkpoint_info.warning);
  t.is(events.reduce((s, e) => s + (e.checkpoint?.figures.buffers ?? 0), 0), pgb.checkpoint_info.wbuffer);
});

/**
 * What a pgBadger fixture must give: `clean`, no ingest error and no orphan line; `orphan lines`, a framing we do not
 * read (syslog, Heroku logplex), so every line is kept as an orphan event carrying the line; `not jsonlog`, a cloud
 * JSON envelope, so every line is one `not_jsonlog` error covering it; `own test`, checked by a test of its own below.
 */
type FixtureOutcome = 'clean' | 'orphan lines' | 'not jsonlog' | 'own test';
/** pgBadger fixtures: format and the log_line_prefix named in PROVENANCE.md (from pgBadger's t/*.t). */
const FIXTURES: Array<[file: string, format: PgLogFormat, prefix: string | undefined, outcome: FixtureOutcome]> = [
  ['light.postgres.log.bz2', 'stderr', '%t [%p]: [%l-1] user=%u,db=%d,app=%a,client=%h ', 'clean'],
  ['pg_vacuums.log.gz', 'stderr', '%t [%p]: [%l-1] user=%u,db=%d,host=%h,app=%a ', 'clean'],
  ['pg_vacuums.json.gz', 'jsonlog', undefined, 'clean'],
  ['tempfile_only.log.gz', 'stderr', '%t [%p]: [%l-1] user=%u,db=%d ', 'clean'],
  ['queryid.log.gz', 'stderr', '%m [%p] [queryid=%Q] %q%u@%d ', 'clean'],
  ['multiline_param.log', 'stderr', '%m [%p] user=%u,db=%d ', 'clean'],
  ['postgresql_param_range.log', 'stderr', '%t [%p]: [%l-1] [%x] usr=%u,db=%d,appli=%a ', 'clean'],
  ['begin_end.log', 'stderr', '%t [%p]: db=%d,user=%u,app=%a,client=%h ', 'clean'],
  ['pg_rawcsv.log', 'stderr', '%m [%p] %q%u@%d ', 'own test'],
  ['rds.log.bz2', 'stderr', '%t:%r:%u@%d:[%p]:', 'clean'],
  ['anonymize.log', 'csvlog', undefined, 'clean'],
  ['weeknumber.log', 'csvlog', undefined, 'clean'],
  ['pg-syslog.1.bz2', 'stderr', '%t [%p]: ', 'orphan lines'],
  ['logplex.gz', 'stderr', '%t [%p]: ', 'orphan lines'],
  ['cloudsql.log.gz', 'jsonlog', undefined, 'not jsonlog'],
  ['cnpg.log.gz', 'jsonlog', undefined, 'not jsonlog'],
];

function readFixture(name: string): Buffer {
  const path = join(fixtures, name);
  if (name.endsWith('.gz')) return gunzipSync(readFileSync(path));
  if (name.endsWith('.bz2')) return execFileSync('bzip2', ['-dc', path], { maxBuffer: 1 << 30 });
  return readFileSync(path);
}

/** The file's non-empty lines, counted apart from the parser: where each starts and its bytes without the line feed. */
function linesOf(bytes: Buffer): Array<{ offset: number; line: Buffer }> {
  const out: Array<{ offset: number; line: Buffer }> = [];
  for (let at = 0; at < bytes.length;) {
    const lf = bytes.indexOf(10, at);
    const end = lf === -1 ? bytes.length : lf;
    if (end > at) out.push({ offset: at, line: bytes.subarray(at, end) });
    at = end + 1;
  }
  return out;
}

for (const [file, format, prefix, outcome] of FIXTURES) {
  corpusTest(`pgbadger fixture ${file} (${format}): ${outcome}`, (t) => {
    const bytes = readFixture(file);
    const { events, errors } = parseBytes(bytes, format, prefix);
    const orphans = events.filter((e) => e.severity === null);
    const kinds: Record<string, number> = {};
    for (const e of events) kinds[e.kind] = (kinds[e.kind] ?? 0) + 1;
    t.log(`${file}: ${bytes.length} bytes, ${events.length} events, ${errors.length} ingest errors, ${orphans.length} orphan lines; kinds ${JSON.stringify(kinds)}`);
    t.true(events.length + errors.length > 0);
    if (outcome === 'clean') {
      t.deepEqual(errors.map((e) => e.reason), []);
      t.is(orphans.length, 0);
    } else if (outcome === 'orphan lines') {
      t.deepEqual(errors.map((e) => e.reason), []);
      t.is(orphans.length, events.length, 'no line is taken for an entry');
      t.deepEqual(events.map((e) => e.message), linesOf(bytes).map((l) => l.line.toString('utf8')), 'one orphan per line, with its text');
    } else if (outcome === 'not jsonlog') {
      t.deepEqual(events, []);
      t.deepEqual(errors.map((e) => e.kind), linesOf(bytes).map(() => 'not_jsonlog'), 'one error per line');
      t.deepEqual(errors.map((e) => [e.offset, e.length]), linesOf(bytes).map((l) => [l.offset, l.line.length + 1]), 'each covering its line and line feed');
    }
  });
}

corpusTest('pgbadger fixture pg_rawcsv.log: the two pg_ctl lines are the only orphans, kept in file order', (t) => {
  const events = parseBytes(readFixture('pg_rawcsv.log'), 'stderr', '%m [%p] %q%u@%d ').events;
  t.deepEqual(events.filter((e) => e.severity === null).map((e) => e.message), ['pg_ctl: could not start server', 'Examine the log output.']);
  t.deepEqual(events.slice(1, 4).map((e) => e.severity), ['FATAL', null, null]);
});

corpusTest('pgbadger fixture queryid.log.gz: lock wait with `at character 15` and its query id', (t) => {
  const events = parseBytes(readFixture('queryid.log.gz'), 'stderr', '%m [%p] [queryid=%Q] %q%u@%d ').events;
  // Read by hand from the file: lines `process 2129 still waiting … after 1000.153 ms at character 15` / `acquired … 13555.814 ms`.
  const waits = events.filter((e) => e.kind === 'lock_wait');
  t.deepEqual(waits.map((e) => [e.lock?.phase, e.lock?.mode, e.lock?.object, e.lock?.wait_ms, e.query_id, e.user, e.database]), [
    ['still_waiting', 'AccessShareLock', 'relation 96570405 of database 16384', 1000.153, '0', 'postgres', 'stackoverflow'],
    ['acquired', 'AccessShareLock', 'relation 96570405 of database 16384', 13555.814, '0', 'postgres', 'stackoverflow'],
  ]);
  t.deepEqual(waits[0]?.lock?.holder_pids, [2120]);
  const eps = episodesOf(events);
  t.deepEqual(eps.map((e) => [e.pid, e.outcome, e.wait_ms, e.statement]), [[2129, 'acquired', 13555.814, 'select * from t1;']]);
});

// Issue 30: every log of the corpus read as its first lines show, with no prefix or format given, reads exactly as
// under the prefix and format named in PROVENANCE.md; the framings perfpipe does not read (syslog, Heroku, cloud
// JSON envelopes) fit nothing and say so instead of turning into orphan lines.
const UNREAD = new Set(['pg-syslog.1.bz2', 'logplex.gz', 'cloudsql.log.gz', 'cnpg.log.gz']);
const detectedCases: Array<[name: string, read: () => Buffer, format: PgLogFormat, prefix: string | undefined]> = [
  ...FIXTURES.map(([file, format, prefix]) => [file, () => readFixture(file), format, prefix] as [string, () => Buffer, PgLogFormat, string | undefined]),
  ...FORMATS.map(([ext, format]) => [`postgresql-phase1.${ext}`, () => readFileSync(join(generated, `postgresql-phase1.${ext}`)), format, PHASE1_PREFIX] as [string, () => Buffer, PgLogFormat, string]),
];
for (const [name, bytesOf, format, prefix] of detectedCases) {
  corpusTest(`${name}: read as its first lines show, with nothing given, ${UNREAD.has(name) ? 'it fits nothing' : 'it reads as under its own prefix and format'}`, (t) => {
    const bytes = bytesOf();
    const found = detectPgLog(bytes.subarray(0, DETECT_HEAD_BYTES), bytes.length <= DETECT_HEAD_BYTES);
    t.log(`${name}: ${found.format} ${JSON.stringify(found.prefix)} (${found.framed} of ${found.lines} lines)`);
    if (UNREAD.has(name)) {
      t.is(found.format, null);
      t.true(found.unframed.length > 0);
      return;
    }
    t.is(found.format, format);
    const given = parseBytes(bytes, format, prefix);
    const seen = parseBytes(bytes, found.format ?? 'stderr', found.prefix ?? undefined);
    const at = given.events.findIndex((e, i) => JSON.stringify(e) !== JSON.stringify(seen.events[i]));
    t.deepEqual(at < 0 ? null : seen.events[at], at < 0 ? null : given.events[at], `entry ${at}`);
    t.is(seen.events.length, given.events.length);
    t.deepEqual(episodesOf(seen.events), episodesOf(given.events));
  });
}
