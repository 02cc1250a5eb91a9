// Whether a lock one connection holds blocks what another requests (docs/tj-format.md §5.4 step 4): same space, not
// both Shared, and every field both name has intersecting values. Classes follow buganych's port of the BSL
// reference: `exact` (ПолноеСоответствие), `escalation` (Эскалация), `overlap` (РазныйНаборИзмерений or ranges).
import type { LockItem, LockValue } from './lock-items.js';

export type LockConflict = 'exact' | 'escalation' | 'overlap';

/**
 * Orders two field values. Numbers compare as numbers; everything else as text, which is right for the fixed-width
 * dates (`T"20260301000000"`) and references; strings follow code points, not 1C's collation — a range over
 * strings whose bounds differ only in case may be judged wrongly (not seen in practice).
 */
function compare(a: string, b: string): number {
  const x = Number(a);
  const y = Number(b);
  if (a !== '' && b !== '' && Number.isFinite(x) && Number.isFinite(y)) return x - y;
  return a < b ? -1 : a > b ? 1 : 0;
}

const bounds = (v: LockValue): [string | null, string | null] => (v.kind === 'value' ? [v.value, v.value] : [v.lo, v.hi]);

/** Two values intersect when neither lies wholly beyond the other; ranges are taken as closed (`[` `]`). */
export function valuesIntersect(a: LockValue, b: LockValue): boolean {
  const [alo, ahi] = bounds(a);
  const [blo, bhi] = bounds(b);
  if (alo !== null && bhi !== null && compare(alo, bhi) > 0) return false;
  if (blo !== null && ahi !== null && compare(blo, ahi) > 0) return false;
  return true;
}

/** `held` by the culprit against `requested` by the victim; `escalating` is the culprit TLOCK's own flag. */
export function lockConflict(held: LockItem, requested: LockItem, escalating = false): LockConflict | null {
  if (held.space !== requested.space) return null;
  if (held.mode === 'Shared' && requested.mode === 'Shared') return null;
  // An escalated lock covers the whole space, whatever fields the request it grew from named.
  if (escalating || held.fields.size === 0) return 'escalation';
  for (const [name, value] of held.fields) {
    const other = requested.fields.get(name);
    if (other !== undefined && !valuesIntersect(value, other)) return null;
  }
  return held.text === requested.text ? 'exact' : 'overlap';
}
