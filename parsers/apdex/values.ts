// Conversions of the export's field texts (XDTO lexical forms) to typed values; null when the text does not fit.

/** `tUtc` counts milliseconds from 0001-01-01 00:00 UTC (SSL НачатьЗамерВремени); Unix time starts this much later. */
export const MS_0001_TO_1970 = 62_135_596_800_000;

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const DATETIME = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d:\d\d)?$/;

export function toNumber(text: string | undefined): number | null {
  if (text === undefined) return null;
  const t = text.trim().replace(',', '.'); // a decimal comma from hand-edited or localised files
  return NUMBER.test(t) ? Number(t) : null;
}

export function toInt(text: string | undefined): number | null {
  const n = toNumber(text);
  return n !== null && Number.isSafeInteger(n) ? n : null;
}

export function toBool(text: string | undefined): boolean | null {
  const t = text?.trim();
  return t === 'true' || t === '1' ? true : t === 'false' || t === '0' ? false : null;
}

/** Seconds → whole microseconds; rounding absorbs binary noise (`0.29 * 1e6` is 290000.00000000006). */
export function secondsToUs(text: string | undefined): number | null {
  const s = toNumber(text);
  return s === null || s < 0 ? null : Math.round(s * 1e6);
}

/**
 * A dateTime without a zone is read as UTC: the export names these fields `…UTC`, and reading them in
 * the parser's local zone would make the result depend on the machine.
 */
export function dateTimeToIso(text: string | undefined): string | null {
  const m = text === undefined ? null : DATETIME.exec(text.trim());
  if (m === null) return null;
  const ms = Date.parse(`${m[1]}${(m[2] ?? '').slice(0, 4)}${m[3] ?? 'Z'}`);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** `tUtc`: ms since 0001-01-01 UTC in 1.0.0.4 (a Number, maybe fractional), a dateTime in 1.0.0.0. */
export function startToIso(text: string | undefined): string | null {
  const n = toNumber(text);
  if (n === null) return dateTimeToIso(text);
  const unix = Math.round(n) - MS_0001_TO_1970;
  // Outside 1970..9999 it is not a start time the base could have written (8.64e15 is Date's own limit).
  return unix < 0 || unix > 253_402_300_799_999 ? null : new Date(unix).toISOString();
}
