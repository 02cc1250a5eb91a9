import { createHash } from 'node:crypto';

// The shape of a DBMS statement: the text with literals, parameters, temp-table numbers and GUIDs
// normalised away, so that one query shape groups together (issue "Foundation", item 6: sql_hash).

const INLINE_PARAMS = /\np_\d+: [\s\S]*$/; // SQL Server: parameters appended after the text (docs/tj-format.md §4.1)
const STRING_LITERAL = /N?'(?:[^']|'')*'/g;
const GUID = /\b[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}\b/g;
const HEX = /\b0x[0-9a-fA-F]+\b/g;
const TEMP_TABLE = /\b(#?tt|pg_temp\.tt)\d+\b/gi;
const NUMBER = /(?<![\w$#@.])-?\d+(?:\.\d+)?(?![\w])/g;
const LIST = /\?(?:\s*,\s*\?)+/g;
const SPACE = /\s+/g;

export function sqlShape(sql: string): string {
  return sql
    .replace(INLINE_PARAMS, '')
    .replace(STRING_LITERAL, '?')
    .replace(GUID, '?')
    .replace(HEX, '?')
    .replace(TEMP_TABLE, '$1?')
    .replace(NUMBER, '?')
    .replace(LIST, '?…')
    .replace(SPACE, ' ')
    .trim();
}

/** A 64-bit fingerprint of the shape as an unsigned decimal string (ClickHouse UInt64 takes it in JSON). */
export function sqlHash(sql: string): string {
  if (sql === '') return '0';
  return createHash('sha1').update(sqlShape(sql)).digest().readBigUInt64BE(0).toString();
}
