// What changed between two runs, and inside each (issue #25 item 4, docs/runs.md): the context recorded at
// `runs start` (PostgreSQL settings, version and extensions; the host's facts), the settings the server log shows a
// reload changing, and what the TJ shows of 1C (platform, infobases). `report run-compare` and `report runs` put the
// changes next to the APDEX change; the HTML section "What changed" draws the same document.
import type { StoreAccess } from '../store-access.js';
import { windowParams } from './window-params.js';

/** One fact that differs: its value in run A and in run B (null: not recorded there). */
export interface ContextChange {
  scope: string;
  name: string;
  a: string | null;
  b: string | null;
  /** Where B's value comes from: the `runs start` snapshot, the server log's reload line, or the TJ. */
  from: 'snapshot' | 'pg log' | 'tj';
  /** The time of the reload line that set B's value, when the log tells it. */
  at?: string;
}

/** A change inside a run: a reload line in its window, or a fact that differs between its start and stop snapshots. */
export interface RunChange { run: string; scope: string; name: string; a: string | null; b: string; at: string; from: 'pg log' | 'snapshot' }

export interface RunWindow { name: string; window: { from: number; to: number } }

/** Rows of queries/reports/<name>.sql; every parameter here is a text. */
type Rows = (name: string, params: Record<string, string>) => Promise<Record<string, unknown>[]>;

/** One fact of a snapshot: what `runs start` and `runs stop` write. */
export interface ContextFact { scope: string; name: string; value: string; source: string }

/** Writes one snapshot (`origin` 'start' or 'stop') of run `run` at `atMs`, as rows of run_context. */
export const RECORD_CONTEXT = `INSERT INTO run_context (observed_at, run, origin, scope, name, value, source)
  SELECT fromUnixTimestamp64Milli({at:Int64}), {run:String}, {origin:String}, f.1, f.2, f.3, f.4
  FROM (SELECT arrayJoin(arrayZip({scopes:Array(String)}, {names:Array(String)}, {values:Array(String)}, {sources:Array(String)})) AS f)`;

export async function recordContext(access: StoreAccess, run: string, origin: 'start' | 'stop', atMs: number, facts: readonly ContextFact[]): Promise<void> {
  if (facts.length === 0) return;
  await access.run(RECORD_CONTEXT, {
    at: atMs, run, origin, scopes: facts.map((f) => f.scope), names: facts.map((f) => f.name), values: facts.map((f) => f.value), sources: facts.map((f) => f.source),
  });
}

const key = (scope: string, name: string): string => `${scope}\u0000${name}`;
const s = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
const byScopeName = (x: { scope: string; name: string }, y: { scope: string; name: string }): number =>
  x.scope < y.scope ? -1 : x.scope > y.scope ? 1 : x.name < y.name ? -1 : x.name > y.name ? 1 : 0;

interface Side { snapshot: Map<string, ContextFact>; stop: Map<string, ContextFact>; reloads: Array<{ at: string; name: string; value: string }>; oneC: Map<string, string> }

async function side(rows: Rows, run: RunWindow): Promise<Side> {
  const snap = async (origin: string) => new Map((await rows('run-context', { run: run.name, origin })).map((r) => {
    const f = { scope: s(r.scope), name: s(r.name), value: s(r.value), source: s(r.source) };
    return [key(f.scope, f.name), f] as const;
  }));
  const reloads = (await rows('pg-setting-reloads', windowParams(run.window))).map((r) => ({ at: s(r.at), name: s(r.name), value: s(r.value) }));
  const [c] = await rows('one-c-context', windowParams(run.window));
  const oneC = new Map([['platform', s(c?.platform)], ['infobases', s(c?.infobases)]].filter(([, v]) => v !== '') as Array<[string, string]>);
  return { snapshot: await snap('start'), stop: await snap('stop'), reloads, oneC };
}

/** The last value each setting was reloaded to in the server log before `beforeS` (Unix s). */
async function loggedBefore(rows: Rows, beforeS: number): Promise<Map<string, { value: string; at: string }>> {
  const out = new Map<string, { value: string; at: string }>();
  for (const r of await rows('pg-setting-reloads', windowParams({ from: 0, to: beforeS }))) out.set(s(r.name), { value: s(r.value), at: s(r.at) });
  return out;
}

export interface ContextComparison {
  /** Facts whose value at B's start differs from A's (snapshots; the server log where a run has no snapshot; the TJ). */
  changes: ContextChange[];
  /** Changes inside either run, with their time. */
  changes_during: RunChange[];
  /** What could not be compared, and why. */
  notes: string[];
}

/** What changed from run A to run B, and inside each. */
export async function compareContexts(rows: Rows, a: RunWindow, b: RunWindow): Promise<ContextComparison> {
  const [sa, sb] = [await side(rows, a), await side(rows, b)];
  const changes: ContextChange[] = [];
  const notes: string[] = [];
  const scopes = (x: Side) => new Set([...x.snapshot.values()].map((f) => f.scope));
  const [scopesA, scopesB] = [scopes(sa), scopes(sb)];
  // Snapshots: compare a scope both runs recorded; a scope one run lacks is a note, not a list of every fact.
  for (const scope of new Set([...scopesA, ...scopesB])) {
    if (!scopesA.has(scope) || !scopesB.has(scope)) {
      const missing = scopesA.has(scope) ? b.name : a.name;
      notes.push(`${scope}: not recorded at the start of run ${missing}; not compared${scope === 'postgresql' ? ' (the server log\'s reloads are shown instead)' : ''}`);
      continue;
    }
    const names = new Set([...sa.snapshot.values(), ...sb.snapshot.values()].filter((f) => f.scope === scope).map((f) => f.name));
    for (const name of names) {
      const [va, vb] = [sa.snapshot.get(key(scope, name))?.value ?? null, sb.snapshot.get(key(scope, name))?.value ?? null];
      if (va !== vb) changes.push({ scope, name, a: va, b: vb, from: 'snapshot' });
    }
  }
  if (!scopesA.has('postgresql') && !scopesB.has('postgresql')) {
    notes.push('postgresql: neither run recorded its settings at its start; only the server log\'s reloads are shown');
  }
  // Without both PostgreSQL snapshots, the server log's reloads between the two starts tell what changed and when.
  if (!scopesA.has('postgresql') || !scopesB.has('postgresql')) {
    const before = await loggedBefore(rows, a.window.from);
    const between = await rows('pg-setting-reloads', windowParams({ from: a.window.from, to: b.window.from }));
    const last = new Map<string, { value: string; at: string }>();
    for (const r of between) last.set(s(r.name), { value: s(r.value), at: s(r.at) });
    for (const [name, { value, at }] of last) {
      const was = sa.snapshot.get(key('postgresql', name))?.value ?? before.get(name)?.value ?? null;
      if (was !== value) changes.push({ scope: 'postgresql', name, a: was, b: value, from: 'pg log', at });
    }
  }
  for (const name of new Set([...sa.oneC.keys(), ...sb.oneC.keys()])) {
    const [va, vb] = [sa.oneC.get(name) ?? null, sb.oneC.get(name) ?? null];
    if (va !== null && vb !== null && va !== vb) changes.push({ scope: '1c', name, a: va, b: vb, from: 'tj' });
  }
  const during: RunChange[] = [];
  // A run compared with itself (the first of a history) lists its own changes once.
  for (const [run, x] of (a.name === b.name ? [[a, sa]] : [[a, sa], [b, sb]]) as ReadonlyArray<readonly [RunWindow, Side]>) {
    const known = new Map([...(await loggedBefore(rows, run.window.from))].map(([n, v]) => [n, v.value]));
    for (const f of x.snapshot.values()) if (f.scope === 'postgresql') known.set(f.name, f.value);
    for (const r of x.reloads) {
      during.push({ run: run.name, scope: 'postgresql', name: r.name, a: known.get(r.name) ?? null, b: r.value, at: r.at, from: 'pg log' });
      known.set(r.name, r.value);
    }
    // A fact the stop snapshot has changed, and no reload line explains: shown at the stop.
    for (const f of x.stop.values()) {
      const start = x.snapshot.get(key(f.scope, f.name));
      if (start === undefined || start.value === f.value) continue;
      if (f.scope === 'postgresql' && x.reloads.some((r) => r.name === f.name)) continue;
      during.push({ run: run.name, scope: f.scope, name: f.name, a: start.value, b: f.value, at: new Date(run.window.to * 1000).toISOString(), from: 'snapshot' });
    }
  }
  return { changes: changes.sort(byScopeName), changes_during: during, notes };
}
