// Property names of TJ events looked up by their bytes: the byte-level row encoder (tj-row-encoder.ts) finds a
// name's column without making a string of it. A journal uses some hundred distinct names, each decoded once.
import { ID_COLUMNS, NULLABLE_INT_COLUMNS, STRING_COLUMNS, TJ_EVENTS } from '../../schemas/tj-row.js';

/** How a property's value fills its column (schemas/tj-row.ts's COLUMN_OF, rule by rule). */
export const Rule = {
  /** No column: the value goes to `props`. */
  props: 0,
  string: 1,
  /** Unsigned 64-bit id; '' leaves 0, anything else not a UInt64 goes to props. */
  id: 2,
  /** Signed integer of at most 18 characters or null; '' leaves null. */
  nullableInt: 3,
  /** Unsigned of at most 9 digits; '' leaves 0. */
  dbpid: 4,
  /** Unsigned of at most 9 digits or null; '' leaves null. */
  trans: 5,
  regions: 6,
  waitConnections: 7,
} as const;
export type Rule = (typeof Rule)[keyof typeof Rule];

export interface TjName {
  bytes: Buffer;
  name: string;
  rule: Rule;
  /** The column it fills (index in TJ_EVENTS), -1 for props. */
  column: number;
  /** Number of the event that last used this name: a repeat within one event is found without a set. */
  seenIn: number;
  next: TjName | null;
}

const RULES = new Map<string, { rule: Rule; column: number }>();
for (const [name, column] of Object.entries(STRING_COLUMNS)) RULES.set(name, { rule: Rule.string, column: TJ_EVENTS.indexOf(column) });
for (const [name, column] of Object.entries(ID_COLUMNS)) RULES.set(name, { rule: Rule.id, column: TJ_EVENTS.indexOf(column) });
for (const [name, column] of Object.entries(NULLABLE_INT_COLUMNS)) RULES.set(name, { rule: Rule.nullableInt, column: TJ_EVENTS.indexOf(column) });
RULES.set('dbpid', { rule: Rule.dbpid, column: TJ_EVENTS.indexOf('dbpid') });
RULES.set('Trans', { rule: Rule.trans, column: TJ_EVENTS.indexOf('trans') });
RULES.set('Regions', { rule: Rule.regions, column: TJ_EVENTS.indexOf('regions') });
RULES.set('WaitConnections', { rule: Rule.waitConnections, column: TJ_EVENTS.indexOf('wait_connections') });

/** FNV-1a over `buf[start, end)`. */
export function hashBytes(buf: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ (buf[i] as number), 0x01000193);
  return h >>> 0;
}

/** Whether `a` equals `b[start, end)`: a loop, since a native compare costs more than a short name (profiled). */
function sameBytes(a: Buffer, b: Buffer, start: number, end: number): boolean {
  if (a.length !== end - start) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[start + i]) return false;
  return true;
}

export class TjNames {
  readonly #byHash = new Map<number, TjName>();

  /** The name at `buf[start, end)`, whose FNV-1a hash is `hash`. */
  get(buf: Buffer, start: number, end: number, hash: number): TjName {
    const first = this.#byHash.get(hash);
    for (let n = first ?? null; n !== null; n = n.next) if (sameBytes(n.bytes, buf, start, end)) return n;
    const bytes = Buffer.from(buf.subarray(start, end));
    const name = bytes.toString('utf8');
    const rule = RULES.get(name) ?? { rule: Rule.props, column: -1 };
    const entry: TjName = { bytes, name, rule: rule.rule, column: rule.column, seenIn: 0, next: first ?? null };
    this.#byHash.set(hash, entry);
    return entry;
  }
}
