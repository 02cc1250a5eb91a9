// Edges of a TDEADLOCK's DeadlockConnectionIntersections (docs/tj-format.md §5.3): who waited for whom, on
// which lock space, in which mode, on which fields.

export interface DeadlockEdge {
  /** t:connectID of the waiting connection. */
  waiter: string;
  /** t:connectID of the connection holding the lock. */
  holder: string;
  /** Lock space, e.g. `Reference10.REFLOCK`. */
  space: string;
  /** `Exclusive` or `Shared`. */
  mode: string;
  /** The rest of the item: `Field=value` pairs as written (may be empty: the whole space). */
  fields: string;
}

const EDGE = /^(\d+)\s+(\d+)\s+(\S+)\s+(\S+)(?:\s+([\s\S]*))?$/;

/**
 * Splits at commas outside `"…"` (field values such as `Fld1="a,b"` may hold commas). A piece that does
 * not start with `<digits> <digits>` is glued back to the previous edge: that is OneSTools' lookahead
 * `(?=,\d+ \d+)` rule, and it keeps us right should a platform version write an unquoted comma.
 */
export function parseDeadlockEdges(value: string): DeadlockEdge[] {
  const pieces: string[] = [];
  let inQuote = false;
  let from = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x22) inQuote = !inQuote; // a doubled "" toggles twice: still right
    else if (c === 0x2c && !inQuote) { pieces.push(value.slice(from, i)); from = i + 1; }
  }
  pieces.push(value.slice(from));

  const edges: DeadlockEdge[] = [];
  for (const raw of pieces) {
    const piece = raw.trim();
    if (piece === '') continue;
    const m = EDGE.exec(piece);
    if (m) {
      edges.push({ waiter: m[1]!, holder: m[2]!, space: m[3]!, mode: m[4]!, fields: (m[5] ?? '').trim() });
    } else if (edges.length > 0) {
      const last = edges[edges.length - 1]!;
      last.fields = last.fields === '' ? piece : `${last.fields},${piece}`;
    }
  }
  return edges;
}

export function formatEdge(e: DeadlockEdge): string {
  return `${e.waiter} waits for ${e.holder} on ${e.space} ${e.mode}${e.fields ? ` ${e.fields}` : ''}`;
}
