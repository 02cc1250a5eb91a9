// The split of every simulated call, recomputed by perfpipe's own path (the TJ parser, call-facts, the per-thread
// accountant) from the files alone, agrees to the µs with what the simulator decided while writing them
// (expected.json `why`): on a run that crosses an hour file, with calls of several threads overlapping in one
// process, threads serving several connections, a process that writes no OSThread, and events without one.
import test from 'ava';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeLoadTest } from '../simulate/load-test.js';
import type { Expected } from '../simulate/load-expected.js';
import { createTjParser } from '../parsers/tj/index.js';
import { hourFromFileName } from '../parsers/tj/event-time.js';
import { firstValue } from '../parsers/tj/properties.js';
import { callFact } from '../parsers/tj/calls/call-facts.js';
import { createThreadAccounts, type ClosedSplit } from '../parsers/tj/calls/thread-accounts.js';
import { sqlHash } from '../parsers/tj/sql-shape.js';
import type { TjEvent } from '../schemas/tj-event.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-why-'));
test.after.always(() => rmSync(work, { recursive: true, force: true }));

const TZ = 'Europe/Moscow';
interface Folder { name: string; events: TjEvent[] }

const setup = (async () => {
  // 08:59:10 UTC: the run crosses 12:00 Moscow time, so calls begin in one hour file and end in the next.
  const expected = await writeLoadTest({ out: work, users: 12, durationMs: 100_000, rate: 200, seed: 5, start: new Date('2026-11-30T08:59:10Z'), timeZone: TZ });
  const folders: Folder[] = [];
  for (const name of readdirSync(join(work, 'tj'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()) {
    // tj/ also holds timezone.txt beside the process folders
    const events: TjEvent[] = [];
    for (const file of readdirSync(join(work, 'tj', name)).sort()) {
      const path = join(work, 'tj', name, file);
      const parser = createTjParser({ host: 'h', source: 'tj', file: path, file_key: path, offset: 0, hour: hourFromFileName(file), tz: TZ });
      const out = [parser.push(readFileSync(path)), parser.finish()];
      if (out.some((o) => o.errors.length > 0)) throw new Error(`parse errors in ${path}`);
      events.push(...out.flatMap((o) => o.events));
    }
    folders.push({ name, events });
  }
  return { expected: JSON.parse(readFileSync(join(work, 'expected.json'), 'utf8')) as Expected & { why: typeof expected.why }, folders };
})();

/** Every folder's events in file order (hour files in name order) through one accountant per process. */
function account(folders: Folder[]) {
  const closed: Array<{ split: ClosedSplit; operation: string }> = [];
  let held = 0;
  for (const f of folders) {
    const a = createThreadAccounts();
    f.events.forEach((e, i) => {
      const s = a.push(callFact(e, i));
      if (s !== null) closed.push({ split: s, operation: (firstValue(e.properties, 'Context') ?? '').split('\n')[0]?.trim() ?? '' });
    });
    held += a.held();
  }
  return { closed, held };
}

test('the simulated run has what the rule must handle: an hour crossing, overlapping threads, shared threads, no OSThread', async (t) => {
  const { folders } = await setup;
  const calls = folders.flatMap((f) => f.events.filter((e) => e.event === 'CALL').map((e) => ({ folder: f.name, file: e.origin.file, e })));
  const thread = (e: TjEvent) => firstValue(e.properties, 'OSThread');
  // A call whose start lies in the previous hour file.
  t.true(calls.some((c) => c.e.ts_start.slice(11, 13) !== c.e.ts.slice(11, 13)), 'no call crosses an hour');
  const threaded = calls.filter((c) => thread(c.e) !== undefined);
  const overlapping = threaded.some((a) => threaded.some((b) => a.folder === b.folder && thread(a.e) !== thread(b.e) && a.e.ts_start < b.e.ts && b.e.ts_start < a.e.ts));
  t.true(overlapping, 'no two threads of one process overlap');
  const connectsPerThread = new Map<string, Set<string>>();
  for (const c of threaded) {
    const key = `${c.folder}/${thread(c.e)}`;
    connectsPerThread.set(key, (connectsPerThread.get(key) ?? new Set()).add(firstValue(c.e.properties, 't:connectID') ?? ''));
  }
  t.true([...connectsPerThread.values()].some((s) => s.size >= 2), 'no thread serves two connections');
  t.true(calls.some((c) => thread(c.e) === undefined), 'every CALL has an OSThread');
  t.true(folders.some((f) => f.events.some((e) => e.event === 'DBPOSTGRS' && thread(e) === undefined)), 'every DB event has an OSThread');
});

test('per operation, the splits the accountant closes add up to expected.json to the microsecond', async (t) => {
  const { expected, folders } = await setup;
  const { closed } = account(folders);
  const sums = new Map<string, { calls: number; us: number; db_us: number; lock_wait_us: number; cpu_us: number; thread_wait_us: number; other_us: number }>();
  for (const { split: s, operation } of closed) {
    const o = sums.get(operation) ?? { calls: 0, us: 0, db_us: 0, lock_wait_us: 0, cpu_us: 0, thread_wait_us: 0, other_us: 0 };
    o.calls++;
    o.us += s.duration_us;
    o.db_us += s.db_us;
    o.lock_wait_us += s.lock_wait_us;
    o.cpu_us += s.cpu_us;
    o.thread_wait_us += s.thread_wait_us;
    o.other_us += s.other_us;
    sums.set(operation, o);
    t.false(s.flags.clock_step || s.flags.parts_exceed || s.flags.no_duration || s.flags.no_cpu_time, JSON.stringify(s.flags));
  }
  t.is(expected.why.operations.length, 4);
  for (const op of expected.why.operations) {
    const { operation, top_sql: _top, ...want } = op;
    t.deepEqual({ operation, ...sums.get(operation) }, { operation, ...want });
  }
});

test('the statement with the most time inside an operation\'s calls is the one expected.json names; the planted one dominates', async (t) => {
  const { expected, folders } = await setup;
  const { closed } = account(folders);
  const dominant = expected.why.dominant;
  t.not(dominant, null);
  t.true((dominant?.share_of_db ?? 0) > 0.5, `share ${dominant?.share_of_db}`);
  for (const op of expected.why.operations) {
    const bySql = new Map<string, number>();
    for (const { split, operation } of closed) if (operation === op.operation) for (const s of split.statements) bySql.set(s.key, (bySql.get(s.key) ?? 0) + s.us);
    const [topKey, topUs] = [...bySql.entries()].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
    t.is(topKey, sqlHash(op.top_sql.sql), op.operation);
    t.is(topUs, op.top_sql.us, op.operation);
  }
  t.is(expected.why.operations.find((o) => o.operation === dominant?.operation)?.top_sql.sql, dominant?.sql);
});
