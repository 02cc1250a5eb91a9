// The lock reports stay honest while a run is live (issue #28 item 4, docs/tj-format.md §5.5): an episode whose
// culprit side is not worked out yet says so, and is completed when the events that complete it arrive — first with
// events appended by hand to a file `perfpipe run` follows, then under `perfpipe simulate --realtime` (its zone read from tj/timezone.txt), whose
// expected.json the final report must equal.
import test from 'ava';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sinkQuery, startDaemon, waitFor } from './support/daemon.js';
import { runCli } from './support/cli.js';
import type { Expected } from '../simulate/load-expected.js';
import type { LocksReport } from '../queries/reports/locks-report.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-lock-live-'));
test.after.always(() => rmSync(work, { recursive: true, force: true }));

async function locks(data: string): Promise<LocksReport> {
  const r = await runCli(['report', 'locks', '--format', 'json', '--data', data]);
  if (r.code !== 0) throw new Error(`report locks exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as LocksReport;
}

test.serial('a timeout whose culprit has not ended its transaction shows as partial, and complete once the commit arrives', async (t) => {
  const loc = join(work, 'tj');
  mkdirSync(join(loc, 'rphost_7'), { recursive: true });
  const file = join(loc, 'rphost_7', '26113014.log');
  const data = join(work, 'data');
  // 18 begins a transaction and takes the item; 19 waits 20 s for it and gives up. 18 has not committed yet.
  writeFileSync(file, `\uFEFF${[
    "45:00.000000-10,SDBL,4,p:processName=erp_load,t:connectID=18,Usr=Петров,Func=BeginTransaction,Context='Обработка.ЗакрытиеМесяца'",
    "45:00.100000-5,TLOCK,5,p:processName=erp_load,t:connectID=18,Usr=Петров,Regions=Reference10.REFLOCK,Locks='Reference10.REFLOCK Exclusive ID=10:95aa',WaitConnections=,Context='Обработка.ЗакрытиеМесяца'",
    "45:21.000000-20000000,TLOCK,5,p:processName=erp_load,t:connectID=19,Usr=Иванов,Regions=Reference10.REFLOCK,Locks='Reference10.REFLOCK Exclusive ID=10:95aa',WaitConnections=18,Context='Форма.Записать'",
    "45:21.000100-0,TTIMEOUT,5,p:processName=erp_load,t:connectID=19,Usr=Иванов,WaitConnections=18,Context='Форма.Записать'",
  ].join('\n')}\n`);
  const daemon = await startDaemon(['run', '--tj', loc, '--tz', 'UTC', '--data', data]);
  t.teardown(() => daemon.stop('SIGKILL'));
  let open: LocksReport | undefined;
  await waitFor(async () => {
    open = await locks(data);
    return open.timeouts.length === 1 && open.timeouts[0]!.culprit_status === 'partial';
  }, 'the timeout worked out while its culprit is still in its transaction', 60_000, 200);
  t.like(open!.timeouts[0]!.culprits[0], { connect_id: 18, tx_start: '2026-11-30T14:45:00.000000Z', tx_end: null, lock: { ts: '2026-11-30T14:45:00.100000Z', match: 'exact' } });
  // The culprit commits; the report follows without being asked to.
  appendFileSync(file, "47:30.000000-10,SDBL,4,p:processName=erp_load,t:connectID=18,Usr=Петров,Func=CommitTransaction,Context='Обработка.ЗакрытиеМесяца'\n");
  let done: LocksReport | undefined;
  await waitFor(async () => {
    done = await locks(data);
    return done.timeouts[0]?.culprit_status === 'complete';
  }, 'the timeout complete once the commit is stored', 60_000, 200);
  t.like(done!.timeouts[0]!.culprits[0], { connect_id: 18, tx_end: '2026-11-30T14:47:30.000000Z', tx_outcome: 'commit' });
  t.like(done!.waits[0], { connect_id: 19, culprit_status: 'complete' });
  t.is(await daemon.stop('SIGTERM'), 0);
});

test.serial('under simulate --realtime: episodes arrive pending, are completed as the run goes, and end as expected.json says', async (t) => {
  const out = join(work, 'sim');
  const data = join(work, 'sim-data');
  const simulated = runCli(['simulate', '--out', out, '--users', '6', '--duration', '75s', '--rate', '120', '--seed', '9', '--conflicts-per-minute', '12', '--realtime']);
  await waitFor(() => existsSync(join(out, 'tj')) && existsSync(join(out, 'pg')), 'the simulator to create its folders', 30_000, 50);
  const daemon = await startDaemon(['run', '--tj', join(out, 'tj'), '--pg', join(out, 'pg'), '--pg-prefix', '%m [%p] %q%u@%d ', '--data', data]);
  t.teardown(() => daemon.stop('SIGKILL'));
  // Every status an episode showed while the run was live, in the order seen.
  const seen = new Map<string, string[]>();
  let simulating = true;
  void simulated.finally(() => { simulating = false; });
  while (simulating) {
    for (const r of await sinkQuery<{ k: string; status: string }>(data, "SELECT concat(kind, '|', toString(ts), '|', toString(victim_connect_id)) AS k, status FROM tj_lock_episodes FINAL")) {
      const list = seen.get(r.k) ?? [];
      if (list.at(-1) !== r.status) list.push(r.status);
      seen.set(r.k, list);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const sim = await simulated;
  t.is(sim.code, 0, sim.stderr);
  const expected = JSON.parse(readFileSync(join(out, 'expected.json'), 'utf8')) as Expected;
  t.true(expected.timeouts.length >= 1 && expected.deadlocks.length >= 1 && expected.waits.length >= 3);
  // Some episode was seen before it was complete, and became complete while the run went on.
  const caught = [...seen.values()].filter((s) => s[0] !== 'complete' && s.at(-1) === 'complete');
  t.true(caught.length > 0, JSON.stringify([...seen]));
  // Once everything written is stored and worked out, the report is what the simulator planned.
  let report: LocksReport | undefined;
  await waitFor(async () => {
    report = await locks(data);
    return report.waits.length === expected.waits.length && report.timeouts.length === expected.timeouts.length
      && [...report.waits, ...report.timeouts, ...report.deadlocks].every((e) => e.culprit_status === 'complete');
  }, 'every episode of the run stored and complete', 60_000, 500);
  const byTs = <T extends { ts: string }>(xs: T[]): T[] => [...xs].sort((a, b) => a.ts.localeCompare(b.ts));
  t.deepEqual(byTs(report!.waits).map((w) => ({ ts: w.ts, connect_id: w.connect_id, culprits: w.culprits.map((c) => [c.connect_id, c.tx_start, c.tx_end, c.lock?.ts]) })),
    byTs(expected.waits).map((w) => ({ ts: w.ts, connect_id: w.connect_id, culprits: w.culprits.map((c) => [c.connect_id, c.tx_start, c.tx_end, c.lock?.ts]) })));
  t.deepEqual(byTs(report!.timeouts).map((x) => ({ ts: x.ts, victim: x.victim_connect_id, culprits: x.culprit_connect_ids })),
    byTs(expected.timeouts).map((x) => ({ ts: x.ts, victim: x.victim_connect_id, culprits: x.culprit_connect_ids })));
  t.deepEqual(byTs(report!.deadlocks).map((d) => ({ ts: d.ts, victim: d.victim_connect_id })), byTs(expected.deadlocks).map((d) => ({ ts: d.ts, victim: d.victim_connect_id })));
  t.is(await daemon.stop('SIGTERM'), 0);
});
