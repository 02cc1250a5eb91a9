// Times on the page, in one IANA zone the caller names (the reader's, not the machine's that renders the page),
// so the same data gives the same page anywhere.

interface Parts { year: string; month: string; day: string; hour: string; minute: string; second: string }

const formatters = new Map<string, Intl.DateTimeFormat>();

function parts(ms: number, timeZone: string): Parts {
  let f = formatters.get(timeZone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  const out: Record<string, string> = {};
  for (const p of f.formatToParts(ms)) out[p.type] = p.value;
  return out as unknown as Parts;
}

/** Minutes the zone is ahead of UTC at `ms` (180 for Moscow, 330 for Kolkata). */
export function zoneOffsetMinutes(ms: number, timeZone: string): number {
  const p = parts(Math.floor(ms / 1000) * 1000, timeZone);
  const local = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return Math.round((local - Math.floor(ms / 1000) * 1000) / 60_000);
}

/** `UTC+03:00 (Europe/Moscow)`, or `UTC` for UTC itself. */
export function zoneLabel(ms: number, timeZone: string): string {
  const off = zoneOffsetMinutes(ms, timeZone);
  if (off === 0 && /^(UTC|Etc\/UTC|GMT|Etc\/GMT|Z)$/i.test(timeZone)) return 'UTC';
  const a = Math.abs(off);
  const sign = off < 0 ? '−' : '+';
  return `UTC${sign}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')} (${timeZone})`;
}

/** `2026-11-30` */
export function formatDate(ms: number, timeZone: string): string {
  const p = parts(ms, timeZone);
  return `${p.year}-${p.month}-${p.day}`;
}

/** `10:05` */
export function formatMinute(ms: number, timeZone: string): string {
  const p = parts(ms, timeZone);
  return `${p.hour}:${p.minute}`;
}

/** `2026-11-30 10:05` */
export function formatDateMinute(ms: number, timeZone: string): string {
  return `${formatDate(ms, timeZone)} ${formatMinute(ms, timeZone)}`;
}

/** `2026-11-30 10:05:31.500`: events in tables keep their milliseconds. */
export function formatInstant(ms: number, timeZone: string): string {
  const p = parts(ms, timeZone);
  const milli = String(((ms % 1000) + 1000) % 1000).padStart(3, '0');
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}.${milli}`;
}

/** An ISO text (`…Z`) or a ClickHouse UTC text (`2026-11-30 10:05:31.500`) as Unix ms; NaN when it is neither. */
export function parseUtc(text: string): number {
  const iso = text.includes('T') ? text : text.replace(' ', 'T');
  return Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(iso) ? iso : `${iso}Z`);
}
