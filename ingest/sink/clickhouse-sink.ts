// Writes segments into ClickHouse: one insert per table per segment, with the segment id as the
// insert_deduplication_token, so a replayed segment (crash, redelivery) is dropped by ClickHouse
// (docs/write-path.md). The rows arrive encoded where they were parsed and go to the store as they are.
// Transient failures are retried with backoff until the sink stops; an insert ClickHouse rejects for good
// becomes an ingest_errors row and the pipeline goes on.
import type { FamilyCatalog, Segment } from '../bus/bus.js';
import type { Store } from '../store/clickhouse.js';
import { EXCERPT_LIMIT, INGEST_ERRORS, type IngestError } from '../../schemas/ingest-error.js';
import { RowBinaryReader } from '../../schemas/row-binary.js';
import type { TableLayout } from '../../schemas/columns.js';
import { isPermanentInsertError } from './insert-errors.js';
import { sleep } from '../retry/sleep.js';
import { backoffMs } from '../retry/backoff.js';

export { isPermanentInsertError };

export interface SinkEvents {
  inserted(table: string, rows: number, ms: number): void;
  insertFailed(table: string, error: Error, attempt: number, permanent: boolean): void;
}

export interface ClickHouseSinkOptions {
  store: Pick<Store, 'insertFormatted'>;
  /** The tables rows may come in (the registry's layouts, ingest/families/registry.ts). */
  layouts: Pick<FamilyCatalog, 'layout'>;
  events: SinkEvents;
  signal?: AbortSignal;
  /** Attempts before a transient failure is given up for this call (the source retries again). */
  maxAttempts?: number;
}

/** Settings of every segment insert: one block, deduplicated by the segment's token (views included). */
export function segmentInsertSettings(token: string): Record<string, string | number> {
  return {
    insert_deduplicate: 1,
    insert_deduplication_token: token,
    deduplicate_blocks_in_dependent_materialized_views: 1,
    // One segment, one block: a split block would deduplicate part by part (docs/write-path.md).
    max_insert_block_size: '100000000',
    min_insert_block_size_rows: '0',
    min_insert_block_size_bytes: '0',
    async_insert: 0,
    // Into a cluster's Distributed table: answered only once every shard stored its part, with this token, so the
    // offset is committed after the rows are on the shards and a replay splits alike (docs/deploy.md §3). A table
    // of one node ignores it.
    distributed_foreground_insert: 1,
  };
}

export function createClickHouseSink(o: ClickHouseSinkOptions) {
  const maxAttempts = o.maxAttempts ?? 6;

  async function insert(layout: TableLayout, rows: number, body: Buffer, token: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const t0 = performance.now();
      try {
        await o.store.insertFormatted({
          table: layout.table, columns: layout.names, structure: layout.structure, body, format: 'RowBinary',
          settings: segmentInsertSettings(token),
        });
        o.events.inserted(layout.table, rows, performance.now() - t0);
        return;
      } catch (error) {
        const permanent = isPermanentInsertError(error);
        o.events.insertFailed(layout.table, error as Error, attempt, permanent);
        if (permanent || attempt >= maxAttempts || o.signal?.aborted) throw error;
        await sleep(backoffMs(attempt, 200, 10_000));
      }
    }
  }

  const insertErrors = (errors: IngestError[], token: string): Promise<void> =>
    insert(INGEST_ERRORS, errors.length, INGEST_ERRORS.encode(errors), token);

  return {
    /** Resolves once every row of the segment is in ClickHouse (or was there already). */
    async write(segment: Segment): Promise<void> {
      for (const t of segment.tables) {
        if (t.rows === 0) continue;
        const layout = o.layouts.layout(t.layout);
        if (layout === undefined) throw new Error(`segment ${segment.id}: ${t.table} rows in a layout this perfpipe does not know (${t.layout})`);
        try {
          await insert(layout, t.rows, t.body, `${segment.id}|${t.table}`);
        } catch (error) {
          if (!isPermanentInsertError(error)) throw error;
          const first = layout.readRow(new RowBinaryReader(t.body));
          const rejected = wholeSegmentError(segment, 'rejected_by_clickhouse',
            `ClickHouse rejected ${t.rows} ${t.table} rows: ${(error as Error).message.slice(0, 300)}`, first);
          await insertErrors([rejected], `${segment.id}|${t.table}|rejected`);
        }
      }
      if (segment.errors.length > 0) await insertErrors(segment.errors, `${segment.id}|ingest_errors`);
    },
  };
}

export type ClickHouseSink = ReturnType<typeof createClickHouseSink>;

/** An ingest error covering a whole segment's bytes, with its first record as the excerpt. */
function wholeSegmentError(segment: Segment, kind: string, why: string, first: unknown): IngestError {
  return {
    host: segment.host, source: segment.source, file: segment.file, file_key: segment.file_key,
    offset: segment.start, length: segment.end - segment.start, kind,
    reason: `${segment.file} bytes ${segment.start}–${segment.end}: ${why}`,
    excerpt: JSON.stringify(first).slice(0, EXCERPT_LIMIT), can_continue: true,
  };
}
