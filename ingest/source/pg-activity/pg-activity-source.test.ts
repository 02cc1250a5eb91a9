// The pg_activity source against a real PostgreSQL under faults: a restart is waited out with backoff and sampling
// resumes, bad credentials are said once in a sentence that names the fix, a sample that outlasts its interval
// skips ticks instead of queueing them, and pg_wait_sampling's history is read when the extension is loaded.
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Segment } from '../../bus/bus.js';
import type { SourceError } from '../../errors/errors.js';
import { silentSourceEvents } from '../source-events.js';
import { PgActivitySourceConfigSchema } from './config.js';
import { createPgActivitySource } from './pg-activity-source.js';
import { createPgActivityRowBuilder } from './pg-activity-rows.js';
import type { PgActivityEvents } from '../source-events.js';
import { PG_ACTIVITY, PG_WAIT_SAMPLES } from '../../../schemas/pg-activity-row.js';
import { RowBinaryReader } from '../../../schemas/row-binary.js';
import { missingPostgres, pgBinDir, testIf } from '../../../test/support/prerequisites.js';
import { removeCluster, startPgCluster, type PgCluster } from '../../../test/support/pg-cluster.js';
import { waitFor } from '../../../test/support/daemon.js';

const clusters: PgCluster[] = [];
const work = mkdtempSync(join(tmpdir(), 'perfpipe-pgact-src-'));
test.after.always(() => {
  for (const c of clusters) { c.stop(); removeCluster(c); }
  rmSync(work, { recursive: true, force: true });
});

interface Recorded { segments: Segment[]; failed: SourceError[]; connected: boolean[]; skipped: number; notices: string[] }

function sampler(connection: string, extra: Record<string, unknown> = {}) {
  const rec: Recorded = { segments: [], failed: [], connected: [], skipped: 0, notices: [] };
  const activity: PgActivityEvents = {
    connected: (_s, info) => rec.connected.push(info.resumed),
    notice: (_s, m) => rec.notices.push(m),
    failed: (_s, e) => rec.failed.push(e),
    sampled: () => {},
    skipped: (_s, n) => { rec.skipped += n; },
  };
  const source = createPgActivitySource({
    config: PgActivitySourceConfigSchema.parse({ type: 'pg_activity', connection, ...extra }), host: 'db-host', mode: 'follow',
    family: 'pg_activity', createRows: createPgActivityRowBuilder,
    publish: async (s) => { rec.segments.push(s); }, events: silentSourceEvents, activity,
  });
  return { source, rec };
}

function rowsOf<L extends typeof PG_ACTIVITY | typeof PG_WAIT_SAMPLES>(segments: Segment[], layout: L) {
  const out: Array<ReturnType<L['readRow']>> = [];
  for (const s of segments) for (const t of s.tables) {
    if (t.layout !== layout.id) continue;
    const r = new RowBinaryReader(t.body);
    for (let i = 0; i < t.rows; i++) out.push(layout.readRow(r) as ReturnType<L['readRow']>);
  }
  return out;
}

/** One server at a time: startPgCluster's port comes from this process's pid, so the last test's is stopped first. */
const cluster = (settings: Record<string, string> = {}): PgCluster => {
  for (const old of clusters.splice(0)) { old.stop(); removeCluster(old); }
  const c = startPgCluster(pgBinDir()!, { listen_addresses: "'127.0.0.1'", ...settings });
  clusters.push(c);
  return c;
};
const urlOf = (c: PgCluster, user = 'postgres') => `postgresql://${user}@127.0.0.1:${c.port}/postgres`;

const serial = testIf(missingPostgres(), { serial: true });

/** Connections the server received over TCP (log_connections on): the sampler's attempts; psql uses the socket. */
const tcpConnections = (c: PgCluster): number =>
  (readFileSync(join(c.dir, 'pg_ctl.log'), 'utf8').match(/connection received: host=127\.0\.0\.1/g) ?? []).length;

/** A listener on a stopped server's port that counts the connections made to it and drops each at once. */
async function countAttempts(port: number): Promise<{ count: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const counted = { count: 0 };
  const server = createServer((socket) => { counted.count += 1; socket.destroy(); });
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(port, '127.0.0.1', resolve); });
  server.on('connection', (socket) => sockets.add(socket));
  return Object.assign(counted, {
    close: () => new Promise<void>((resolve) => { for (const s of sockets) s.destroy(); server.close(() => resolve()); }),
  });
}

serial('a restarted server is waited out with backoff; sampling resumes and each sample is its own segment', async (t) => {
  const c = cluster();
  const { source, rec } = sampler(urlOf(c), { interval_ms: 200, reconnect_max_ms: 1000 });
  await source.start();
  try {
    await waitFor(() => rec.segments.length >= 3, 'three samples', 20_000);
    c.stop();
    // While the server is down a listener on its port counts the sampler's attempts (and drops each at once).
    const attempts = await countAttempts(c.port);
    await waitFor(() => attempts.count >= 3, 'three reconnect attempts while the server is down', 20_000);
    await attempts.close();
    const during = rec.segments.length;
    c.start();
    await waitFor(() => rec.segments.length >= during + 3, 'samples after the restart', 20_000);
    t.deepEqual(rec.connected.slice(0, 2), [false, true], 'connected, then connected again');
    // Several reconnect attempts while the server was down, each problem said once.
    t.true(rec.failed.length >= 1 && rec.failed.length <= 3, `${attempts.count} attempts: ${rec.failed.map((e) => e.message).join('\n')}`);
    t.regex(rec.failed.at(-1)!.message, /^PostgreSQL at 127\.0\.0\.1:\d+\/postgres cannot be reached: .*(ECONNREFUSED|terminat)/);
    const ids = rec.segments.map((s) => s.id);
    t.is(new Set(ids).size, ids.length, 'one segment id per sample');
    t.true(rec.segments.every((s) => s.family === 'pg_activity' && /^db-host\|pg_activity-[0-9a-f]+\|\d+-\d+$/.test(s.id)));
    // The extension is absent here: no history rows, no notice.
    t.is(rowsOf(rec.segments, PG_WAIT_SAMPLES).length, 0);
    t.deepEqual(rec.notices, []);
  } finally {
    await source.stop();
  }
});

serial('bad credentials are one clear error naming the fix, however often it retries; the right password from PGPASSFILE connects', async (t) => {
  const c = cluster({ password_encryption: "'scram-sha-256'", log_connections: 'on' });
  await c.psql(["CREATE ROLE perf LOGIN PASSWORD 'right' IN ROLE pg_read_all_stats"]);
  // The sampler's user must give a password over TCP; the test's own psql keeps the socket (trust).
  writeFileSync(join(c.dir, 'data', 'pg_hba.conf'), 'local all all trust\nhost all perf 127.0.0.1/32 scram-sha-256\nhost all all 127.0.0.1/32 trust\n');
  await c.psql(['SELECT pg_reload_conf()']);
  const saved = { PGPASSWORD: process.env.PGPASSWORD, PGPASSFILE: process.env.PGPASSFILE };
  try {
    delete process.env.PGPASSWORD;
    process.env.PGPASSFILE = join(work, 'no-such-pgpass');
    const none = sampler(urlOf(c, 'perf'), { reconnect_max_ms: 500 });
    let from = tcpConnections(c);
    await none.source.start();
    await waitFor(() => tcpConnections(c) >= from + 3, 'three attempts without a password', 20_000);
    await none.source.stop();
    t.is(none.rec.failed.length, 1, none.rec.failed.map((e) => e.message).join('\n'));
    t.is(none.rec.failed[0]!.message, `PostgreSQL at 127.0.0.1:${c.port}/postgres asks for a password and none is set: put it in PGPASSWORD or a ~/.pgpass line (the URL must not hold it); retrying every few seconds quietly`);
    t.true(none.rec.failed[0]!.permanent);

    process.env.PGPASSWORD = 'wrong';
    const wrong = sampler(urlOf(c, 'perf'), { reconnect_max_ms: 500 });
    from = tcpConnections(c);
    await wrong.source.start();
    await waitFor(() => tcpConnections(c) >= from + 3, 'three attempts with the wrong password', 20_000);
    await wrong.source.stop();
    t.is(wrong.rec.failed.length, 1);
    t.is(wrong.rec.failed[0]!.message, `PostgreSQL at 127.0.0.1:${c.port}/postgres: password authentication failed (28P01: password authentication failed for user "perf"); check PGPASSWORD or ~/.pgpass and pg_hba.conf; retrying quietly`);

    delete process.env.PGPASSWORD;
    const pgpass = join(work, 'pgpass');
    writeFileSync(pgpass, `127.0.0.1:${c.port}:postgres:perf:right\n`, { mode: 0o600 });
    process.env.PGPASSFILE = pgpass;
    // perfpipe reads the file itself: node-postgres' own .pgpass lookup warns that pg 9 drops it.
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    const right = sampler(urlOf(c, 'perf'));
    await right.source.start();
    await waitFor(() => right.rec.segments.length >= 1, 'a sample with the .pgpass password', 10_000);
    await right.source.stop();
    process.off('warning', onWarning);
    t.deepEqual(right.rec.failed, []);
    t.deepEqual(warnings.filter((w) => /pgpass/i.test(w)), []);
  } finally {
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
  }
});

serial('a sample slower than its interval skips ticks instead of queueing behind itself', async (t) => {
  const c = cluster();
  const { source, rec } = sampler(urlOf(c), { interval_ms: 200 });
  const locker = new pg.Client({ connectionString: urlOf(c) });
  await locker.connect();
  await source.start();
  try {
    await waitFor(() => rec.segments.length >= 2, 'first samples', 20_000);
    // pg_stat_activity reads pg_authid: a session holding it exclusively makes each sample wait for its lock_timeout (1 s).
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE pg_authid IN ACCESS EXCLUSIVE MODE');
    const before = rec.segments.length;
    // The sampler ticks on: eight ticks skipped behind the slow samples (about 3 s at 200 ms) prove it kept trying.
    await waitFor(() => rec.skipped >= 8, 'eight ticks skipped', 20_000);
    await locker.query('COMMIT');
    t.true(rec.segments.length - before <= 1, 'no samples while the catalog was locked');
    t.is(rec.failed.length, 1, 'the slow samples said once');
    t.regex(rec.failed[0]!.message, /too slow for a sample/);
    const after = rec.segments.length;
    await waitFor(() => rec.segments.length >= after + 3, 'samples after the lock', 10_000);
    // Samples never queue: samples that had waited behind a slow one would start back to back (a round trip apart,
    // a few ms), while scheduled ones are about an interval apart. Half an interval tells the two apart and leaves
    // room for a loaded machine's start-up jitter (a CI run once started one sample 52 ms late: 148 ms to the next).
    const times = rec.segments.map((s) => s.start);
    t.true(times.slice(1).every((x, i) => x - times[i]! >= 100), JSON.stringify(times));
  } finally {
    await source.stop();
    await locker.end();
  }
});

serial('with pg_wait_sampling loaded its history rows are read, newer ones only, beside the activity rows', async (t) => {
  const c = cluster({ shared_preload_libraries: "'pg_wait_sampling'" });
  await c.psql(['CREATE EXTENSION pg_wait_sampling']);
  const { source, rec } = sampler(urlOf(c), { interval_ms: 500 });
  await source.start();
  const sleeper = new pg.Client({ connectionString: urlOf(c) });
  await sleeper.connect();
  try {
    await sleeper.query('SELECT pg_sleep(2)');
    await waitFor(() => rowsOf(rec.segments, PG_WAIT_SAMPLES).some((r) => r.wait_event === 'PgSleep'), 'PgSleep in the history', 10_000);
    const waits = rowsOf(rec.segments, PG_WAIT_SAMPLES).filter((r) => r.wait_event === 'PgSleep');
    // 2 s at the default 10 ms period: about 200 rows, each stored once.
    t.true(waits.length >= 100 && waits.length <= 260, `${waits.length} PgSleep rows`);
    t.is(new Set(waits.map((r) => r.ts)).size, waits.length);
    t.true(waits.every((r) => r.period_ms === 10 && r.wait_event_type === 'Timeout'));
    t.true(rowsOf(rec.segments, PG_ACTIVITY).some((r) => r.wait_event === 'PgSleep'), 'pg_activity saw the sleep too');
    t.deepEqual(rec.notices, []);
  } finally {
    await sleeper.end();
    await source.stop();
  }
});
