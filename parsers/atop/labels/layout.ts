// How a label's fields are named in each atop version. atop only ever appends fields (docs/atop-format.md §4,
// upstream issue #136), so one table of (field, first version printing it) gives every version's layout,
// and the number of tokens on a line tells which layout, hence which versions, printed it (§6).
export const ATOP_VERSIONS = ['2.4', '2.5', '2.6', '2.7', '2.8', '2.9', '2.10', '2.11', '2.12', '2.13'] as const;
export type AtopVersion = (typeof ATOP_VERSIONS)[number];

/** How a token becomes a value. */
export const FieldKind = {
  number: 'n',
  /** Space-free text printed as is (device names, y/n flags). */
  text: 's',
  /** Text atop wraps in parentheses (process name, cmdline, wchan, cgroup); `-Z` prints it bare. */
  paren: 'p',
  /** A number printed with a `%` suffix (LLC occupancy). */
  percent: '%',
  /** All remaining tokens as a list of integers (CGR `P` lines' PIDs). */
  pids: 'l',
} as const;
export type FieldKind = (typeof FieldKind)[keyof typeof FieldKind];

export interface FieldDef {
  name: string;
  kind: FieldKind;
  since: AtopVersion;
}

export interface Layout {
  /** Tokens after the 6 header tokens. */
  count: number;
  /** The atop versions printing this count, e.g. `2.8–2.9`. */
  versions: string;
  fields: readonly FieldDef[];
}

export interface FieldTable {
  /** Label, or label plus variant (`NET upper`). */
  name: string;
  layouts: readonly Layout[];
  /** Index of a free-text field that may hold spaces: surplus tokens are joined into it, not read as newer fields. */
  joinAt?: number;
}

const KIND_BY_SUFFIX: Record<string, FieldKind> = { s: 's', p: 'p', '%': '%', l: 'l' };

/**
 * Builds a table from groups of field specs, each group tagged with the first version printing it.
 * A spec is `name` (a number) or `name:s` / `name:p` / `name:%` / `name:l` (see FieldKind).
 */
export function fieldTable(name: string, groups: ReadonlyArray<readonly [AtopVersion, readonly string[]]>, joinAt?: number): FieldTable {
  const fields: FieldDef[] = [];
  for (const [since, specs] of groups) {
    for (const spec of specs) {
      const [fieldName = spec, suffix] = spec.split(':');
      fields.push({ name: fieldName, kind: suffix === undefined ? 'n' : (KIND_BY_SUFFIX[suffix] ?? 'n'), since });
    }
  }
  const rank = (v: AtopVersion): number => ATOP_VERSIONS.indexOf(v);
  const layouts: Layout[] = [];
  let run: { count: number; first: AtopVersion; last: AtopVersion } | null = null;
  const close = (): void => {
    if (run === null || run.count === 0) return;
    const versions = run.first === run.last ? run.first : `${run.first}–${run.last}`;
    layouts.push({ count: run.count, versions, fields: fields.filter((f) => rank(f.since) <= rank(run!.last)) });
  };
  for (const v of ATOP_VERSIONS) {
    const count = fields.filter((f) => rank(f.since) <= rank(v)).length;
    if (run !== null && run.count === count) run.last = v;
    else {
      close();
      run = { count, first: v, last: v };
    }
  }
  close();
  const table: FieldTable = { name, layouts };
  return joinAt === undefined ? table : { ...table, joinAt };
}

/**
 * The layout for a line of `count` tokens: an exact match, or, past the newest known count, the newest
 * layout with the surplus named `f<position>` (a newer atop appended fields we do not know yet).
 * A count between known layouts is not a version we know: most likely a cut line, so null.
 */
export function pickLayout(table: FieldTable, count: number): Layout | null {
  const exact = table.layouts.find((l) => l.count === count);
  if (exact !== undefined) return exact;
  const newest = table.layouts[table.layouts.length - 1];
  if (newest === undefined || count <= newest.count || table.joinAt !== undefined) return null;
  const extra: FieldDef[] = [];
  for (let i = newest.count; i < count; i += 1) extra.push({ name: `f${i + 7}`, kind: 'n', since: '2.13' });
  return { count, versions: 'newer', fields: [...newest.fields, ...extra] };
}

/** Field counts a table knows, for error messages: `15, 16, 18, 21 or 26`. */
export function knownCounts(table: FieldTable): string {
  const counts = table.layouts.map((l) => String(l.count));
  return counts.length <= 1 ? counts.join('') : `${counts.slice(0, -1).join(', ')} or ${counts[counts.length - 1]}`;
}
