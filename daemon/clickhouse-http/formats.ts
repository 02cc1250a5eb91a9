// The Content-Type ClickHouse gives each output format (the format's own content type: text formats say what they
// are, binary ones are octet streams), and the format a statement's answer comes in.

export const DEFAULT_FORMAT = 'TabSeparated';

const BINARY = /^(Native|RowBinary|Parquet|Arrow|ArrowStream|ORC|Avro|Protobuf|ProtobufSingle|ProtobufList|MsgPack|CapnProto|BSONEachRow|Npy|RawBLOB)/i;

export function contentTypeOf(format: string): string {
  if (/^(TabSeparated|TSV)/i.test(format)) return 'text/tab-separated-values; charset=UTF-8';
  if (/^CSV/i.test(format)) return `text/csv; charset=UTF-8; header=${/WithNames/i.test(format) ? 'present' : 'absent'}`;
  if (/^(JSON|NDJSON)/i.test(format)) return 'application/json; charset=UTF-8';
  if (/^XML$/i.test(format)) return 'application/xml; charset=UTF-8';
  if (BINARY.test(format)) return 'application/octet-stream';
  return 'text/plain; charset=UTF-8';
}
