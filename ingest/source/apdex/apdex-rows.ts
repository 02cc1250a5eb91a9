// An `apdex` segment's rows: every measurement to apdex_measurements, and the key-operation settings the export
// carries to key_operations, so both inserts are a function of the segment alone (same dedup tokens on replay).
//
// Version rule for key_operations (ReplacingMergeTree keeps the highest version per name): a row from an export
// gets the Unix **seconds** of the newest measurement start in its KeyOperation element (0 when it has none),
// so a later export wins over an earlier one, as apdex_minute's own argMax by start time does. Such a version
// stays below 2^32 until 2106. A manual override is written with the Unix **milliseconds** of the change, which
// exceeds 2^32 for any change after 1970-02-19, so an export row never beats it. An override with a small
// hand-picked version (tests use 2, 3…) is beaten by any export — use milliseconds.
import type { ApdexKeyOperation, ApdexMeasurement, ApdexRecord } from '../../../schemas/apdex-measurement.js';
import { APDEX_MEASUREMENTS, type ApdexRow, KEY_OPERATIONS, type KeyOperationRow } from '../../../schemas/apdex-row.js';
import { clickhouseTime } from '../../../schemas/clickhouse-time.js';
import type { RowBuilder } from '../../rows/row-builder.js';
import { TableWriter, takeAll } from '../../rows/table-writer.js';

/** The largest version an export row can carry: manual overrides start above it. */
export const MAX_EXPORT_VERSION = 2 ** 32 - 1;

export interface ApdexRows {
  measurements: ApdexRow[];
  settings: KeyOperationRow[];
}

/** The rows of one segment's records (a KeyOperation's version needs the measurements that follow it). */
export function apdexRows(records: readonly ApdexRecord[]): ApdexRows {
  const measurements: ApdexRow[] = [];
  const settings: KeyOperationRow[] = [];
  // The parser emits a KeyOperation's settings record and then its measurements (parsers/apdex/README.md);
  // the latest start among the measurements that follow it, up to the next settings record, dates it.
  let open: { k: ApdexKeyOperation; latestMs: number } | null = null;
  const close = (): void => {
    if (open === null) return;
    const version = Math.min(MAX_EXPORT_VERSION, Math.max(0, Math.floor(open.latestMs / 1000)));
    settings.push(keyOperationToRow(open.k, version));
    open = null;
  };
  for (const r of records) {
    if (r.kind === 'key_operation') {
      close();
      open = { k: r, latestMs: 0 };
      continue;
    }
    measurements.push(apdexMeasurementToRow(r));
    if (open !== null && r.operation === open.k.operation) open.latestMs = Math.max(open.latestMs, Date.parse(r.ts_start));
  }
  close();
  return { measurements, settings };
}

/** Records are held to the cut: an export's few thousand measurements, dated as a whole segment. */
export function createApdexRowBuilder(): RowBuilder {
  let held: ApdexRecord[] = [];
  const measurements = new TableWriter(APDEX_MEASUREMENTS, 16 * 1024);
  const settings = new TableWriter(KEY_OPERATIONS, 1024);
  return {
    add(list) {
      for (const r of list) held.push(r as ApdexRecord);
    },
    take() {
      const rows = apdexRows(held);
      const records = held.length;
      held = [];
      for (const r of rows.measurements) measurements.write(r);
      for (const r of rows.settings) settings.write(r);
      return { records, tables: takeAll([measurements, settings]) };
    },
  };
}

const chTime = (iso: string): string => clickhouseTime(iso);

export function apdexMeasurementToRow(m: ApdexMeasurement): ApdexRow {
  return {
    ts_start: chTime(m.ts_start), duration_us: m.duration_us, operation: m.operation, operation_name: m.operation_name,
    operation_uid: m.operation_uid, target_s: m.target_s,
    // A negative priority cannot be stored as UInt32 and has no SSL meaning: treated as not given.
    priority: m.priority !== null && m.priority >= 0 ? m.priority : null,
    min_level: m.min_level, long: m.long, comment: m.comment, weight: m.weight, user: m.user,
    session_number: m.session_number, saved_at: m.saved_at === null ? null : chTime(m.saved_at), failed: m.failed,
    host: m.origin.host, file: m.origin.file, file_key: m.origin.file_key, file_offset: m.origin.offset,
  };
}

/** Settings found in an export, as a `key_operations` row with the given version (source `export`). */
export function keyOperationToRow(k: ApdexKeyOperation, version: number): KeyOperationRow {
  return {
    name: k.operation, description: k.operation_name, target_s: k.target_s,
    priority: k.priority !== null && k.priority >= 0 ? k.priority : null, min_level: k.min_level, source: 'export', version,
  };
}
