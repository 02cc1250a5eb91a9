// Errors as ClickHouse's HTTP interface returns them: the text `Code: N. DB::Exception: message. (NAME)`, the
// header X-ClickHouse-Exception-Code, and the HTTP status ClickHouse uses for that code (its
// src/Server/HTTP/exceptionCodeToHTTPStatus.cpp; docs/clickhouse-http.md §6). Clients key on the code, and some on
// the status (a 5xx is retried, a 4xx is not).

/** The codes this interface raises itself, named as ClickHouse names them (src/Common/ErrorCodes.cpp). */
export const ErrorCode = {
  CANNOT_PARSE_TEXT: 6,
  BAD_ARGUMENTS: 36,
  TOO_LARGE_SIZE_COMPRESSED: 39,
  CHECKSUM_DOESNT_MATCH: 40,
  NOT_IMPLEMENTED: 48,
  SYNTAX_ERROR: 62,
  UNKNOWN_FORMAT: 73,
  UNKNOWN_COMPRESSION_METHOD: 89,
  UNKNOWN_SETTING: 115,
  TIMEOUT_EXCEEDED: 159,
  READONLY: 164,
  REQUIRED_PASSWORD: 194,
  TOO_MANY_SIMULTANEOUS_QUERIES: 202,
  QUERY_WITH_SAME_ID_IS_ALREADY_RUNNING: 216,
  QUERY_IS_TOO_LARGE: 229,
  CANNOT_DECOMPRESS: 271,
  INTO_OUTFILE_NOT_ALLOWED: 358,
  SESSION_NOT_FOUND: 372,
  SESSION_IS_LOCKED: 373,
  INVALID_SESSION_TIMEOUT: 374,
  HTTP_LENGTH_REQUIRED: 381,
  QUERY_WAS_CANCELLED: 394,
  SETTING_CONSTRAINT_VIOLATION: 452,
  ACCESS_DENIED: 497,
  AUTHENTICATION_FAILED: 516,
  UNKNOWN_EXCEPTION: 1002,
} as const;
export type ErrorCodeName = keyof typeof ErrorCode;

const NAMES = new Map<number, string>(Object.entries(ErrorCode).map(([name, code]) => [code, name]));

/** An error to answer with: its code, the code's name, and the engine's or our message (without the `Code:` frame). */
export class ClickHouseHttpError extends Error {
  constructor(readonly code: number, message: string, readonly codeName = NAMES.get(code) ?? 'UNKNOWN_EXCEPTION') {
    super(message);
    this.name = 'ClickHouseHttpError';
  }

  /** The body ClickHouse sends: `Code: 516. DB::Exception: …. (AUTHENTICATION_FAILED)`. */
  get text(): string {
    return `Code: ${this.code}. DB::Exception: ${this.message.replace(/\.?$/, '.')} (${this.codeName})`;
  }
}

export const chError = (name: ErrorCodeName, message: string): ClickHouseHttpError => new ClickHouseHttpError(ErrorCode[name], message, name);

const ENGINE_ERROR = /Code: (\d+)\. DB::Exception: ([\s\S]*?)(?:\. )?\(([A-Z_0-9]+)\)(?: \(version [^)]*\))?\s*$/;

/**
 * An error thrown by the engine (chdb puts ClickHouse's own text in the message) as code, name and message; any other
 * error is an UNKNOWN_EXCEPTION that keeps its message.
 */
export function fromEngineError(error: unknown): ClickHouseHttpError {
  if (error instanceof ClickHouseHttpError) return error;
  const message = error instanceof Error ? error.message : String(error);
  // node:zlib's errors (Z_DATA_ERROR…) while a compressed request body is read.
  const zlibCode = (error as { code?: unknown } | null)?.code;
  if (typeof zlibCode === 'string' && /^(Z_|ERR_BROTLI|ERR__ERROR_FORMAT_PADDING)/.test(zlibCode)) {
    return chError('CANNOT_DECOMPRESS', `Cannot decompress the request body by its Content-Encoding: ${message}`);
  }
  const m = ENGINE_ERROR.exec(message.trim());
  if (m) return new ClickHouseHttpError(Number(m[1]), innermost(m[2] as string), m[3]);
  return new ClickHouseHttpError(ErrorCode.UNKNOWN_EXCEPTION, message);
}

/** The engine sometimes wraps its message in its own frame again (`Code: 73. DB::Exception: … (NAME) (version …).`). */
function innermost(message: string): string {
  let m = message;
  for (let i = 0; i < 3; i++) m = m.replace(/^Code: \d+\. DB::Exception: /, '').replace(/\.? \([A-Z_0-9]+\)(?: \(version [^)]*\))?\.?\s*$/, '');
  return m;
}

// The HTTP status of each error code, as ClickHouse maps them; any other code is 500.
const STATUS_OF: ReadonlyArray<[number, readonly number[]]> = [
  [401, [194]], // REQUIRED_PASSWORD
  [403, [192, 193, 516, 497, 512]], // UNKNOWN_USER, WRONG_PASSWORD, AUTHENTICATION_FAILED, ACCESS_DENIED, SET_NON_GRANTED_ROLE
  // BAD_ARGUMENTS, CANNOT_COMPILE_REGEXP, CANNOT_PARSE_* (text, escape, quoted, date, datetime, number, domain,
  // input assertion, UUID), DUPLICATE_COLUMN, ILLEGAL_COLUMN, UNKNOWN_ELEMENT_IN_AST, UNKNOWN_TYPE_OF_AST_NODE,
  // THERE_IS_NO_COLUMN, TOO_DEEP_AST, TOO_BIG_AST, UNEXPECTED_AST_STRUCTURE, SYNTAX_ERROR, INCORRECT_DATA, TYPE_MISMATCH,
  // VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE
  [400, [36, 427, 6, 25, 26, 38, 41, 72, 441, 27, 376, 15, 44, 37, 123, 8, 167, 168, 223, 62, 117, 53, 321]],
  // UNKNOWN_TABLE, _FUNCTION, _IDENTIFIER, _TYPE, _STORAGE, _DATABASE, _SETTING, _DIRECTION_OF_SORTING,
  // _AGGREGATE_FUNCTION, _FORMAT, _DATABASE_ENGINE, _TYPE_OF_QUERY, _ROLE
  [404, [60, 46, 47, 50, 56, 81, 115, 152, 63, 73, 336, 78, 511]],
  [413, [229]], // QUERY_IS_TOO_LARGE
  [501, [48]], // NOT_IMPLEMENTED
  [503, [209, 76, 439]], // SOCKET_TIMEOUT, CANNOT_OPEN_FILE, CANNOT_SCHEDULE_TASK
  [411, [381]], // HTTP_LENGTH_REQUIRED
  [408, [159]], // TIMEOUT_EXCEEDED
];

export function httpStatusOf(code: number): number {
  for (const [status, codes] of STATUS_OF) if (codes.includes(code)) return status;
  return 500;
}
