// A `perfmon` segment's rows: every counter value of a sample line to perfmon_samples, a function of the segment alone.
import type { RowBuilder } from '../../rows/row-builder.js';
import { rowsAsRecordsCome, TableWriter } from '../../rows/table-writer.js';
import { PERFMON_SAMPLES, type PerfmonSample } from './perfmon-record.js';

export function createPerfmonRowBuilder(): RowBuilder {
  const samples = new TableWriter(PERFMON_SAMPLES, 4096);
  return rowsAsRecordsCome([samples], (s: PerfmonSample) => samples.write({
    ts: s.ts, host: s.origin.host, counter: s.counter, value: s.value, file_key: s.origin.file_key, file_offset: s.origin.offset,
  }));
}
