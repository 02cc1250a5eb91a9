// `perfpipe simulate --hosts N`: one load test per host, each in its own folder with its own expected.json, and the
// totals beside them; each host's files, ingested under the host's name, store exactly that host's truth. What the
// scale check of the distributed shape (docs/deploy.md §2: an agent per host) starts from.
import test from 'ava';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Expected } from '../simulate/load-expected.js';
import { runCli } from './support/cli.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-simulate-hosts-'));
test.after.always(() => rmSync(work, { recursive: true, force: true }));

interface Totals { hosts: Array<{ name: string; dir: string; seed: number }>; tj: { events: number; bytes: number; files: number }; pg: { entries: number } }

test('three simulated hosts each hold their own load test, and each stores its own truth under its name', async (t) => {
  const out = join(work, 'run');
  const sim = await runCli(['simulate', '--out', out, '--hosts', '3', '--users', '4', '--duration', '30s', '--rate', '80', '--seed', '11']);
  t.is(sim.code, 0, sim.stderr);
  t.deepEqual(readdirSync(out).sort(), ['expected.json', 'host-01', 'host-02', 'host-03']);
  const totals = JSON.parse(readFileSync(join(out, 'expected.json'), 'utf8')) as Totals;
  t.deepEqual(totals.hosts.map((h) => [h.name, h.seed]), [['host-01', 11], ['host-02', 12], ['host-03', 13]]);
  const each = totals.hosts.map((h) => JSON.parse(readFileSync(join(out, h.dir, 'expected.json'), 'utf8')) as Expected);
  t.is(totals.tj.events, each.reduce((a, e) => a + e.tj.events, 0));
  t.is(totals.pg.entries, each.reduce((a, e) => a + e.pg.entries, 0));
  t.is(new Set(each.map((e) => e.tj.bytes)).size, 3, 'three different loads, not one copied');
  const data = join(work, 'data');
  for (const h of totals.hosts) {
    const dir = join(out, h.dir);
    const ingest = await runCli(['ingest', '--tj', join(dir, 'tj'), '--pg', join(dir, 'pg'), '--pg-prefix', '%m [%p] %q%u@%d ', '--tz', 'Europe/Moscow', '--host', h.name, '--data', data]);
    t.is(ingest.code, 0, ingest.stderr);
  }
  const counts = await runCli(['sql', 'SELECT host, count() AS n FROM tj_events GROUP BY host ORDER BY host', '--format', 'json', '--data', data]);
  t.is(counts.code, 0, counts.stderr);
  const stored = counts.stdout.trim().split('\n').map((l) => JSON.parse(l) as { host: string; n: string });
  t.deepEqual(stored.map((r) => [r.host, Number(r.n)]), totals.hosts.map((h, i) => [h.name, each[i]?.tj.events]));
});
