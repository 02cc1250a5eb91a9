// DBPOSTGRS events as 1C writes them on PostgreSQL: multi-line `Sql` with `$n` placeholders, `Prm` holding
// `p_n: <literal>::<type>` lines, `dbpid`, `Rows`/`RowsAffected` and the libpq `Result` (docs/tj-format.md §4.1).
import type { Prng } from './prng.js';
import type { TjProperty } from './tj-writer.js';
import type { SimSession } from './tj-session.js';
import { OPERATIONS, STRING_VALUES, type Operation } from './tj-vocabulary.js';

type Emit = (name: string, depth: number, duration: number, props: TjProperty[]) => unknown;

const bytea = (rng: Prng): string => `'\\\\x${rng.hex(32)}'::bytea`;
// 1C's mvarchar literal doubles an apostrophe inside the text, as SQL does.
const mvarchar = (text: string): string => `'${text.replaceAll("'", "''")}'::mvarchar`;

/** A statement duration: mostly sub-millisecond, with a long tail of slow statements (seconds). */
function statementDuration(rng: Prng): number {
  return rng.chance(0.02) ? rng.int(50_000, 3_000_000) : Math.round(rng.exp(700)) + 20;
}

export function dbEvent(rng: Prng, s: SimSession, op: Operation, db: TjProperty[], trans: string, context: string, emit: Emit): void {
  const table = rng.pick(op.tables);
  const base: TjProperty[] = [...db, ['Trans', trans], ['dbpid', String(s.dbpid)]];
  const kind = rng.next();
  if (kind < 0.55) {
    const rows = rng.int(0, 40);
    emit('DBPOSTGRS', 5, statementDuration(rng), [...base,
      ['Sql', `SELECT\nT1._IDRRef,\nT1._Version,\nT1._Marked,\nT1._Description,\nT1._Fld521\nFROM ${table} T1\n` +
        `WHERE ((T1._Fld521 = CAST(0 AS NUMERIC))) AND (T1._IDRRef = $1)\nORDER BY T1._IDRRef\nLIMIT 1000`],
      ['Prm', `p_1: ${bytea(rng)}`], ['Rows', String(rows)], ['RowsAffected', String(rows)],
      ['Result', 'PGRES_TUPLES_OK'], ['Context', context]]);
  } else if (kind < 0.8) {
    // A text parameter can hold `"` (ООО "Ромашка"): then Prm holds both quote characters.
    emit('DBPOSTGRS', 5, statementDuration(rng), [...base,
      ['Sql', `INSERT INTO ${table}\n(_Period,_RecorderRRef,_LineNo,_Active,_Fld31254RRef,_Fld20643)\nVALUES($1,$2,$3,$4,$5,$6)`],
      ['Prm', `p_1: '2026-03-01 00:00:00'::timestamp\np_2: ${bytea(rng)}\np_3: ${rng.int(1, 300)}::numeric\n` +
        `p_4: TRUE\np_5: ${bytea(rng)}\np_6: ${mvarchar(rng.pick(STRING_VALUES))}`],
      ['RowsAffected', '1'], ['Result', 'PGRES_COMMAND_OK'], ['Context', context]]);
  } else if (kind < 0.95) {
    emit('DBPOSTGRS', 5, statementDuration(rng), [...base,
      ['Sql', `UPDATE ${table} SET _Version = _Version + 1, _Description = $2\nWHERE _IDRRef = $1`],
      ['Prm', `p_1: ${bytea(rng)}\np_2: ${mvarchar(rng.pick(STRING_VALUES))}`],
      ['RowsAffected', String(rng.int(0, 1))], ['Result', 'PGRES_COMMAND_OK'], ['Context', context]]);
  } else {
    // A statement without parameters and without `,`/`=`/quotes is written unquoted (`Sql=SET …` in the corpus).
    emit('DBPOSTGRS', 4, rng.int(20, 400), [...base, ['Sql', `ANALYZE pg_temp.tt${rng.int(1, 40)}`],
      ['RowsAffected', '0'], ['Result', 'PGRES_COMMAND_OK']]);
  }
}

/**
 * The statement planted to dominate one operation's DB time (issue #25, item 6): month closing reads the balances of
 * an accumulation register, 200–600 ms every time, against a few ms of everything else the operation runs.
 */
export const DOMINANT = {
  operation: (OPERATIONS[1] as Operation).call,
  sql: 'SELECT\nT1._Fld31254RRef,\nSUM(T1._Fld31256) AS Fld31256Balance_\nFROM _AccumRg31253 T1\n' +
    'WHERE T1._Period <= $1 AND T1._Active = TRUE\nGROUP BY T1._Fld31254RRef\nHAVING (SUM(T1._Fld31256) <> CAST(0 AS NUMERIC))',
} as const;

export function dominantEvent(rng: Prng, s: SimSession, db: TjProperty[], context: string, emit: Emit): void {
  const rows = rng.int(200, 4000);
  emit('DBPOSTGRS', 5, rng.int(200_000, 600_000), [...db, ['Trans', '0'], ['dbpid', String(s.dbpid)], ['Sql', DOMINANT.sql],
    ['Prm', "p_1: '2026-11-30 23:59:59'::timestamp"], ['Rows', String(rows)], ['RowsAffected', String(rows)],
    ['Result', 'PGRES_TUPLES_OK'], ['Context', context]]);
}
