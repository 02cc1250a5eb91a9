// Serializes events into technological-journal text exactly as the 1C platform writes it (docs/tj-format.md §2–§3).
// Pure: strings in, a string out; file placement lives in tj-layout.ts.

/** Header flavours: 8.3 writes 6 fraction digits and µs durations, 8.2 writes 4 digits and 1/10000 s (§2). */
export const TjVersion = { v83: '8.3', v82: '8.2' } as const;
export type TjVersion = (typeof TjVersion)[keyof typeof TjVersion];

export const UTF8_BOM = '\uFEFF';

export interface TjWriteOptions {
  /** Header flavour; default 8.3. */
  version?: TjVersion;
  /** Line end; Windows servers write CRLF, Linux LF (§1). Default LF. */
  eol?: '\n' | '\r\n';
}

export interface TjFileOptions extends TjWriteOptions {
  /** Start the file with a UTF-8 BOM, as every platform-written file does (§1). Default true. */
  bom?: boolean;
}

/** A property as written: names may repeat within one event, so a list of pairs, not a map (§3). */
export type TjProperty = readonly [name: string, value: string];

export interface TjRecord {
  /** Minute and second of the event's end within the file's hour, local time (§2 "Timestamp"). */
  minute: number;
  second: number;
  /** Microseconds within the second (0–999999); 8.2 output keeps only the first 4 digits. */
  microsecond: number;
  duration_us: number;
  name: string;
  /** Nesting level in the thread's call stack (§2 "DEPTH"). */
  depth: number;
  props: readonly TjProperty[];
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** `mm:ss.ffffff-<duration>,<NAME>,<depth>` without the trailing comma. */
export function formatTjHeader(rec: TjRecord, version: TjVersion = TjVersion.v83): string {
  const clock = `${pad(rec.minute, 2)}:${pad(rec.second, 2)}`;
  // 8.2 counts in 1/10000 s (100 µs): truncate, as the platform's integer tick counter does.
  const fraction = version === TjVersion.v82 ? pad(Math.floor(rec.microsecond / 100), 4) : pad(rec.microsecond, 6);
  const duration = version === TjVersion.v82 ? Math.floor(rec.duration_us / 100) : rec.duration_us;
  return `${clock}.${fraction}-${duration},${rec.name},${rec.depth}`;
}

// Characters that force quoting. `,` and line breaks end an unquoted value; quote characters would be read as an
// opening quote. `=` is in the list because in the corpus every value containing `=` is quoted
// (`Txt='Ping direction opened on server: directionID=…'`, `Locks='InfoRg49.DIMS Shared Fld50=47:…'`) while
// values without any of these characters never are (`Sql=SET LOCK_TIMEOUT 20000`).
const NEEDS_QUOTES = /[,'"\r\n=]/;

/**
 * Writes one value the way the platform does (§3). Unquoted when nothing forces quotes (an empty value stays
 * empty: `WaitConnections=`). Otherwise `'…'`, except when the text holds `'` but no `"`: then `"…"`, so the
 * apostrophes need no doubling (`Prm="p_1: '…'::mvarchar"`). When both quote characters occur the corpus shows
 * `'…'` with `''` doubled (`НСтр("ru = ''…''")`); the quote that was chosen is always doubled inside.
 */
export function formatTjValue(value: string): string {
  if (!NEEDS_QUOTES.test(value)) return value;
  const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
  return quote + value.split(quote).join(quote + quote) + quote;
}

/** One event with its line end; line breaks inside values become `eol` too (a Windows text-mode write). */
export function formatTjEvent(rec: TjRecord, options: TjWriteOptions = {}): string {
  const eol = options.eol ?? '\n';
  let line = `${formatTjHeader(rec, options.version)},`;
  // The header's trailing comma stays even without properties: `…,SCRIPTCIRCREFS,5,` style stubs (§2 grammar).
  line += rec.props.map(([name, value]) => `${name}=${formatTjValue(value)}`).join(',');
  line += '\n';
  return eol === '\n' ? line : line.replace(/\r?\n/g, eol);
}

/** A whole file: optional BOM, then every event in the order given (file order, not necessarily time order). */
export function formatTjFile(records: Iterable<TjRecord>, options: TjFileOptions = {}): string {
  let out = options.bom ?? true ? UTF8_BOM : '';
  for (const rec of records) out += formatTjEvent(rec, options);
  return out;
}
