// TJ time (docs/tj-format.md §2, docs/architecture.md §4): a line carries `mm:ss.frac` of the event's END in the
// server's local time; the hour comes from the file name `yymmddhh.log`. Converts to UTC microseconds.

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit',
      hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** Whether `tz` is an IANA zone this runtime knows. */
export function isValidTimeZone(tz: string): boolean {
  try {
    formatterFor(tz);
    return true;
  } catch {
    return false;
  }
}

/** Offset of `tz` from UTC at the instant `utcMs`, in milliseconds (local = utc + offset). */
function zoneOffsetMs(utcMs: number, tz: string): number {
  const parts = formatterFor(tz).formatToParts(new Date(utcMs));
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(utcMs / 1000) * 1000;
}

/**
 * UTC milliseconds of a local wall-clock time in `tz`. The offsets in force 12 hours before and after
 * are the only candidates; in the hour repeated when clocks go back both fit and the earlier instant is
 * taken (a TJ file name cannot tell the two passes apart); in the hour skipped when clocks go forward
 * neither fits and the offset from before the change is used.
 */
export function localToUtcMs(y: number, mo: number, d: number, h: number, mi: number, s: number, tz: string): number {
  const wall = Date.UTC(y, mo - 1, d, h, mi, s);
  const before = wall - zoneOffsetMs(wall - 12 * 3600_000, tz);
  const after = wall - zoneOffsetMs(wall + 12 * 3600_000, tz);
  const fits = (utc: number): boolean => utc + zoneOffsetMs(utc, tz) === wall;
  if (fits(before) && fits(after)) return Math.min(before, after);
  if (fits(before)) return before;
  if (fits(after)) return after;
  return before;
}

/** Parses `yymmddhh` from a TJ file name (the last run of exactly 8 digits), or null. */
export function hourFromFileName(name: string): string | null {
  const base = name.replace(/^.*[\\/]/, '');
  const runs = base.match(/(?<!\d)\d{8}(?!\d)/g);
  const last = runs?.[runs.length - 1];
  return last !== undefined && isValidHour(last) ? last : null;
}

export function isValidHour(yymmddhh: string): boolean {
  if (!/^\d{8}$/.test(yymmddhh)) return false;
  const mo = Number(yymmddhh.slice(2, 4));
  const d = Number(yymmddhh.slice(4, 6));
  const h = Number(yymmddhh.slice(6, 8));
  return mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h <= 23;
}

/** UTC microseconds at the start of the local hour `yymmddhh` in `tz`. */
export function hourStartUs(yymmddhh: string, tz: string): number {
  const y = 2000 + Number(yymmddhh.slice(0, 2));
  const ms = localToUtcMs(y, Number(yymmddhh.slice(2, 4)), Number(yymmddhh.slice(4, 6)), Number(yymmddhh.slice(6, 8)), 0, 0, tz);
  return ms * 1000;
}

/**
 * Formats ISO-8601 UTC with six fraction digits (`2021-10-22T15:00:00.123456Z`). Events of one file
 * cluster in time, so the `YYYY-MM-DDTHH:MM:SS.` prefix of the last second is kept (Date formatting
 * was a quarter of parse time before).
 */
export class IsoMicrosFormatter {
  private second = Number.NaN;
  private prefix = '';
  private prefixBytes = Buffer.alloc(0);

  format(us: number): string {
    const frac = this.frac(us);
    return `${this.prefix}${frac < 100000 ? String(frac).padStart(6, '0') : frac}Z`;
  }

  /** The bytes of `format(us)` written into `buf` at `o` (ASCII); returns the index after them. */
  formatInto(us: number, buf: Uint8Array, o: number): number {
    // An int32 from here: the digit loop's `%` on a double was a floating-point remainder per digit (node --cpu-prof).
    let frac = this.frac(us) | 0;
    const prefix = this.prefixBytes;
    for (let i = 0; i < prefix.length; i++) buf[o++] = prefix[i] as number;
    for (let i = o + 5; i >= o; i--, frac = (frac / 10) | 0) buf[i] = 0x30 + (frac % 10); // frac < 10^6
    buf[o + 6] = 0x5a; // Z
    return o + 7;
  }

  /** Microseconds within the second of `us`, with the prefix of that second made current. */
  private frac(us: number): number {
    const second = Math.floor(us / 1_000_000);
    if (second !== this.second) {
      this.second = second;
      this.prefix = new Date(second * 1000).toISOString().slice(0, 20);
      this.prefixBytes = Buffer.from(this.prefix, 'latin1');
    }
    return us - second * 1_000_000;
  }
}

const sharedFormatter = new IsoMicrosFormatter();

/** ISO-8601 UTC with six fraction digits. */
export function isoMicros(us: number): string {
  return sharedFormatter.format(us);
}

/** ClickHouse DateTime64(6) text: `seconds.micros` since the epoch, exact for any µs value. */
export function clickhouseMicros(us: number): string {
  const s = Math.floor(us / 1_000_000);
  const frac = us - s * 1_000_000;
  return `${s}.${String(frac).padStart(6, '0')}`;
}
