// Which rows a segment becomes, per table. The families' row mappings live in schemas/.
import type { Segment } from '../bus/bus.js';
import type { TjEvent } from '../../schemas/tj-event.js';
import { tjEventToRow } from '../../schemas/tj-row.js';
import { pgSegmentRows } from './pg-segment-rows.js';
import { apdexSegmentRows } from './apdex-segment-rows.js';
import { atopSegmentRows } from './atop-segment-rows.js';

export function rowsForSegment(segment: Segment): Map<string, unknown[]> {
  const tables = new Map<string, unknown[]>();
  switch (segment.family) {
    case 'tj':
      tables.set('tj_events', (segment.events as TjEvent[]).map((e) => tjEventToRow(e)));
      break;
    case 'pg':
      pgSegmentRows(segment, tables);
      break;
    case 'apdex':
      apdexSegmentRows(segment, tables);
      break;
    case 'atop':
      atopSegmentRows(segment, tables);
      break;
    default:
      throw new Error(`perfpipe: no ClickHouse tables for the ${segment.family} family yet`);
  }
  tables.set('ingest_errors', segment.errors);
  return tables;
}
