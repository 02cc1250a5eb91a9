// `perfpipe run --pg-activity URL` against a real PostgreSQL (issue #16's bar): while one session holds a row lock
// for 6 s and another waits on it, pg_activity stores the waiter's Lock samples with the holder among its
// blocking_pids, `report pg-waits --format json` lists the Lock wait, and a TJ journal whose DB events carry the
// backends' pids as `dbpid` names the 1C user and context of waiter and holder. The blocked-backend alert reaches
// the webhook while the waiter is still blocked.
import test from 'ava';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { missingPostgres, pgBinDir, testIf } from './support/prerequisites.js';
import { connectSession, removeCluster, startPgCluster, type PgCluster } from './support/pg-cluster.js';
import { sinkQuery, startDaemon, waitFor, type Daemon } from './support/daemon.js';
import { runCli } from './support/cli.js';
import { startReceiver, type Receiver } from './support/alert-receiver.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-pgact-'));
const data = join(work, 'data');
const tj = join(work, 'tj');
let cluster: PgCluster | undefined;
let daemon: Daemon | undefined;
let receiver: Receiver | undefined;
test.after.always(async () => {
  await daemon?.stop('SIGKILL');
  await receiver?.close();
  cluster?.stop();
  removeCluster(cluster);
  rmSync(work, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** A TJ DBPOSTGRS event ending now (UTC), in the hour file it belongs to. */
function tjDbEvent(dir: string, dbpid: number, user: string, context: string, sql: string, durationUs: number): void {
  const d = new Date();
  const hour = `${pad(d.getUTCFullYear() % 100)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}`;
  const line = `${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}000-${durationUs},DBPOSTGRS,4,process=rphost,`
    + `p:processName=BP30,t:connectID=${dbpid % 1000},Usr=${user},dbpid=${dbpid},Trans=1,Sql='${sql}',Context='${context}'\n`;
  appendFileSync(join(dir, `${hour}.log`), line);
}

testIf(missingPostgres(), { serial: true })('a row lock held 6 s: an alert while blocked, Lock samples name the holder, report pg-waits lists the wait and both 1C sides', async (t) => {
  cluster = startPgCluster(pgBinDir()!, { listen_addresses: "'127.0.0.1'" });
  await cluster.psql(['CREATE TABLE accounts (id int PRIMARY KEY, balance int)', 'INSERT INTO accounts VALUES (1, 0)']);
  const url = `postgresql://postgres@127.0.0.1:${cluster.port}/postgres`;
  const rphost = join(tj, 'rphost_4242');
  mkdirSync(rphost, { recursive: true });
  receiver = await startReceiver();
  const config = join(work, 'perfpipe.yaml');
  writeFileSync(config, 'alerts:\n  group_wait_ms: 0\n  rules:\n    pg_blocked:\n      threshold_ms: 2000\n');
  daemon = await startDaemon(['run', '--config', config, '--alert-webhook', receiver.url, '--pg-activity', url, '--tj', tj, '--tz', 'UTC', '--data', data]);
  const blockedAlerts = () => receiver!.received.flatMap((r) => (r.body as { alerts: Array<{ labels: Record<string, string>; annotations: Record<string, string> }> }).alerts)
    .filter((a) => a.labels.alertname === 'PostgresBackendBlocked');

  const { client: holder, pid: holderPid } = await connectSession(url);
  const { client: waiter, pid: waiterPid } = await connectSession(url);
  try {
    await holder.query('BEGIN');
    await holder.query('UPDATE accounts SET balance = 1 WHERE id = 1');
    tjDbEvent(rphost, holderPid, 'Иванов', 'Документ.Заказ.Форма.ФормаДокумента : Записать', 'UPDATE accounts SET balance = 1 WHERE id = 1', 900);
    await sleep(200);
    const began = Date.now();
    const waiting = waiter.query('UPDATE accounts SET balance = 2 WHERE id = 1');
    // Fires from the samples while the waiter is blocked: the holder has not committed yet.
    await waitFor(() => blockedAlerts().length > 0, 'the blocked-backend alert', 5500, 100);
    const alert = blockedAlerts()[0]!;
    t.like(alert.annotations, {
      last_waiter_pid: String(waiterPid), last_holder_pids: String(holderPid), last_outcome: 'still blocked',
      last_wait: 'Lock/transactionid', last_waiter_statement: 'UPDATE accounts SET balance = 2 WHERE id = 1', last_holder_1c_users: 'Иванов',
    });
    t.regex(alert.annotations.last_holders ?? '', /idle in transaction.*UPDATE accounts SET balance = 1 WHERE id = 1/);
    await sleep(Math.max(0, 6000 - (Date.now() - began)));
    await holder.query('COMMIT');
    await waiting;
    tjDbEvent(rphost, waiterPid, 'Петров', 'Документ.Заказ.МодульОбъекта : ОбработкаПроведения', 'UPDATE accounts SET balance = 2 WHERE id = 1', 6_000_000);

    const lockSamples = async () => (await sinkQuery<{ n: string }>(data,
      `SELECT count() AS n FROM pg_activity WHERE pid = ${waiterPid} AND wait_event_type = 'Lock' AND has(blocking_pids, ${holderPid})`))[0]?.n;
    await waitFor(async () => Number(await lockSamples()) >= 3, 'three Lock samples of the waiter', 30_000);
    await waitFor(async () => Number((await sinkQuery<{ n: string }>(data, 'SELECT count() AS n FROM tj_events WHERE dbpid != 0'))[0]?.n) === 2, 'the TJ events', 30_000);
    const n = Number(await lockSamples());
    t.true(n >= 3 && n <= 8, `${n} Lock samples in 6 s at 1 s`);
    // The sampler's own backend is never stored.
    const own = await sinkQuery<{ n: string }>(data, "SELECT count() AS n FROM pg_activity WHERE application = 'perfpipe pg_activity sampler'");
    t.is(Number(own[0]?.n), 0);
    await daemon.stop();
    daemon = undefined;

    const report = await runCli(['report', 'pg-waits', '--format', 'json', '--data', data]);
    t.is(report.code, 0, report.stderr);
    const doc = JSON.parse(report.stdout) as { wait_events: Array<Record<string, unknown>>; blocked: Array<Record<string, unknown>> };
    const lock = doc.wait_events.find((e) => e.wait_event_type === 'Lock');
    t.like(lock, { wait_event_type: 'Lock', wait_event: 'transactionid' });
    t.true(Number(lock?.samples) >= 3 && Number(lock?.seconds) >= 3, JSON.stringify(lock));
    const episode = doc.blocked.find((b) => b.pid === waiterPid);
    t.like(episode, {
      wait_event_type: 'Lock', holder_pid: holderPid, holder_pids: [holderPid], holder_state: 'idle in transaction',
      query: 'UPDATE accounts SET balance = 2 WHERE id = 1', holder_query: 'UPDATE accounts SET balance = 1 WHERE id = 1',
      waiter_1c_user: 'Петров', waiter_context: 'Документ.Заказ.МодульОбъекта : ОбработкаПроведения',
      holder_1c_user: 'Иванов', holder_context: 'Документ.Заказ.Форма.ФормаДокумента : Записать',
    });
    t.true(Number(episode?.samples) >= 3);
  } finally {
    await holder.end().catch(() => {});
    await waiter.end().catch(() => {});
  }
});
