// Binary inserts into the embedded engine, through a file the engine reads. chdb hands an inline insert's bytes
// to the engine as query text (chdb-node lib/chdb_node.cpp: "INSERT … FORMAT x\n<data>"), and the engine's
// multi-statement splitter ends inline data that is not VALUES at the first empty line ("\n\n"; ClickHouse test
// 03156_default_multiquery_split): RowBinary bytes hold that pair wherever a number or a text does, and the rest
// of the rows would be read as SQL. So the bytes go to a file and the insert reads them with file(), which cost
// no more than the inline form (bench/engine-doors.ts); the same bytes go to a server as an HTTP body unchanged.
import { mkdirSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface BinaryInserter {
  /**
   * Inserts `body` (RowBinary of `structure`, `name Type, …`) into `table (columns)` with `settings`.
   * Replays of the same bytes form the same blocks (one reading thread), so dedup tokens hold.
   */
  insert(o: { table: string; columns: readonly string[]; structure: string; settings: Record<string, string | number>; body: Buffer }): Promise<void>;
  close(): void;
}

/** `run(sql)` executes one statement on the embedded engine. Files live in `spoolDir` only while inserted. */
export function createBinaryInserter(spoolDir: string, run: (sql: string) => Promise<void>): BinaryInserter {
  rmSync(spoolDir, { recursive: true, force: true }); // files a killed process left behind
  mkdirSync(spoolDir, { recursive: true });
  let seq = 0;
  return {
    async insert(o) {
      const path = join(spoolDir, `${process.pid}-${++seq}.rowbinary`);
      await writeFile(path, o.body);
      try {
        const settings = { ...o.settings, max_threads: 1, max_insert_threads: 1 };
        const list = Object.entries(settings).map(([k, v]) => `${k} = ${sqlLiteral(v)}`).join(', ');
        await run(`INSERT INTO ${o.table} (${o.columns.join(', ')}) SELECT * FROM file(${sqlLiteral(path)}, 'RowBinary', ${sqlLiteral(o.structure)}) SETTINGS ${list}`);
      } finally {
        rmSync(path, { force: true });
      }
    },
    close() {
      rmSync(spoolDir, { recursive: true, force: true });
    },
  };
}

/** A ClickHouse literal: a number as it is, a string quoted with backslash and quote escaped. */
export function sqlLiteral(value: string | number): string {
  return typeof value === 'number' ? String(value) : `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
