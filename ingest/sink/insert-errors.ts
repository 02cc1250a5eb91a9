// Which insert failures retrying cannot fix: ClickHouse error codes of bad data or schema, not of network or load
// (ClickHouse's src/Common/ErrorCodes.cpp names each).
const PERMANENT_CODES: ReadonlyMap<string, string> = new Map([
  ['6', 'CANNOT_PARSE_TEXT'],
  ['26', 'CANNOT_PARSE_QUOTED_STRING'],
  ['27', 'CANNOT_PARSE_INPUT_ASSERTION_FAILED'],
  ['32', 'ATTEMPT_TO_READ_AFTER_EOF'],
  ['33', 'CANNOT_READ_ALL_DATA'],
  ['38', 'CANNOT_PARSE_DATE'],
  ['41', 'CANNOT_PARSE_DATETIME'],
  ['53', 'TYPE_MISMATCH'],
  ['60', 'UNKNOWN_TABLE'],
  ['62', 'SYNTAX_ERROR'],
  ['70', 'CANNOT_CONVERT_TYPE'],
  ['72', 'CANNOT_PARSE_NUMBER'],
  ['117', 'INCORRECT_DATA'],
  ['130', 'CANNOT_READ_ARRAY_FROM_TEXT'],
  ['131', 'TOO_LARGE_STRING_SIZE'],
  ['252', 'TOO_MANY_PARTS'],
]);

export function isPermanentInsertError(error: unknown): boolean {
  const code = (error as { code?: string | number })?.code;
  return code !== undefined && PERMANENT_CODES.has(String(code));
}

/**
 * Whether a failed write failed for want of disk space: ClickHouse's NOT_ENOUGH_SPACE (243, `Cannot reserve 9.08 MiB,
 * not enough space`) or the system's ENOSPC (the embedded engine's spooled inserts, the checkpoint journal). Retried
 * like any transient failure; said once while it lasts (daemon/assembly/store-disk.ts).
 */
export function isDiskFull(error: unknown): boolean {
  const e = error as { code?: string | number; message?: string } | null;
  return String(e?.code) === '243' || e?.code === 'ENOSPC' || /not enough space|no space left on device|ENOSPC/i.test(e?.message ?? '');
}
