// Binary inserts into the embedded engine, through a file the engine reads. chdb hands an inline insert's bytes
// to the engine as query text (chdb-node lib/chdb_node.cpp: "INSERT … FORMAT x\n<data>"), and the engine's
// multi-statement splitter ends inline data that is not VALUES at the first empty line ("\n\n"; ClickHouse test
// 03156_default_multiquery_split): RowBinary bytes hold that pair wherever a number or a text does, and the rest
// of the rows would be read as SQL. So the bytes go to a file and the insert reads them with file(), which cost
// no more than the inline form (bench/engine-doors.ts); the same bytes go to a server as an HTTP body unchanged.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface BinaryInserter {
  /**
   * Inserts `body` (RowBinary of `structure`, `name Type, …`) into `table (columns)` with `settings`.
   * Replays of the same bytes form the same blocks (one reading thread), so dedup tokens hold.
   */
  insert(o: { table: string; columns: readonly string[]; structure: string; settings: Record<string, string | number>; body: Buffer }): Promise<void>;
  close(): void;
}

/** One statement on the embedded engine, values bound as parameters and settings as settings (never in its text). */
export type RunStatement = (o: { query: string; query_params: Record<string, string>; clickhouse_settings: Record<string, string | number> }) => Promise<unknown>;

/**
 * One reading thread (replays form the same blocks, so dedup tokens hold), and no JIT: the engine compiles the
 * views' expressions with LLVM once they repeat, which in this process costs its code pages and the compiler's
 * memory for no gain on blocks of a few thousand rows — peak RSS of a 1 GB ingest 514 against 536 MiB, and no
 * slower (docs/write-path.md §7). A server's inserts keep its own settings.
 */
const EMBEDDED_INSERT_SETTINGS = {
  max_threads: 1, max_insert_threads: 1, compile_expressions: 0, compile_aggregate_expressions: 0, compile_sort_description: 0,
  // The embedded engine is clickhouse-local, which maps the files file() reads: the segment's 13 MiB sat in this
  // process's RSS while it was inserted. Read into the engine's buffer instead (docs/write-path.md §7).
  storage_file_read_method: 'pread',
} as const;

/** Files live in `spoolDir` only while they are inserted. */
export function createBinaryInserter(spoolDir: string, run: RunStatement): BinaryInserter {
  rmSync(spoolDir, { recursive: true, force: true }); // files a killed process left behind
  mkdirSync(spoolDir, { recursive: true });
  let seq = 0;
  return {
    async insert(o) {
      const path = join(spoolDir, `${process.pid}-${++seq}.rowbinary`);
      // Written synchronously, on purpose: about 3 ms for a 12 MB segment into the page cache. fs/promises'
      // writeFile writes in 512 KiB pieces, each continued by the main thread, which is busy parsing the next
      // segment between reads: the spool of one segment took 80-170 ms and the insert started only once the parser
      // paused — parse and insert ran one after the other instead of on both cores (docs/write-path.md §4).
      writeFileSync(path, o.body);
      try {
        await run({
          query: `INSERT INTO ${o.table} (${o.columns.join(', ')}) SELECT * FROM file({path:String}, 'RowBinary', {structure:String})`,
          query_params: { path, structure: o.structure },
          clickhouse_settings: { ...o.settings, ...EMBEDDED_INSERT_SETTINGS },
        });
      } finally {
        rmSync(path, { force: true });
      }
    },
    close() {
      rmSync(spoolDir, { recursive: true, force: true });
    },
  };
}
