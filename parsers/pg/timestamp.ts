// Turns PostgreSQL time text (`2026-11-30 14:09:45.343 UTC`, `%t`, `%n` epoch) into ISO-8601 UTC with milliseconds.
// Zone abbreviations are ambiguous (IST, CST): a configured IANA `tz` wins over the small table below (docs/pg-format.md §3).

const ABBREV_MINUTES: Readonly<Record<string, number>> = {
  UTC: 0, GMT: 0, Z: 0, UT: 0, WET: 0, WEST: 60, BST: 60, CET: 60, CEST: 120, MET: 60, MEST: 120, EET: 120,
  EEST: 180, MSK: 180, MSD: 240, SAMT: 240, YEKT: 300, OMST: 360, NOVT: 420, KRAT: 420, IRKT: 480, YAKT: 540,
  VLAT: 600, MAGT: 660, PETT: 720, EST: -300, EDT: -240, CST: -360, CDT: -300, MST: -420, MDT: -360, PST: -480,
  PDT: -420, JST: 540, KST: 540, AEST: 600, AEDT: 660, NZST: 720, NZDT: 780,
};

function numericOffsetMinutes(tz: string): number | null {
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(tz);
  if (m === null) return null;
  const mins = Number(m[2]) * 60 + Number(m[3] ?? 0);
  return m[1] === '-' ? -mins : mins;
}

const zoneFormatters = new Map<string, Intl.DateTimeFormat>();

/** Offset of IANA zone `zone` at UTC instant `utcMs`, in minutes; null when the zone is unknown. */
function zoneOffsetMinutes(zone: string, utcMs: number): number | null {
  let f = zoneFormatters.get(zone);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit',
        hour: '2-digit', minute: '2-digit', second: '2-digit',
      });
    } catch {
      return null;
    }
    zoneFormatters.set(zone, f);
  }
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(new Date(utcMs))) p[part.type] = Number(part.value);
  const asUtc = Date.UTC(p.year ?? 0, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0);
  return Math.round((asUtc - Math.floor(utcMs / 1000) * 1000) / 60000);
}

// Offsets are cached per (hour, zone token): a busy log repeats both for thousands of lines.
const hourCache = new Map<string, number | null>();

/** ISO-8601 UTC (`…T14:09:45.343Z`) for `YYYY-MM-DD HH:MM:SS[.fff] [TZ]`, or null when it is not such a time. */
export function pgTimeToIso(text: string, tz?: string): string | null {
  if (text.length < 19 || text.charCodeAt(4) !== 45 || text.charCodeAt(10) !== 32) return null;
  let i = 19;
  let ms = '.000';
  if (text.charCodeAt(19) === 46) {
    ms = `.${text.slice(20, 23).padEnd(3, '0')}`;
    i = 20;
    while (i < text.length && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
  }
  const zone = text.slice(i).trim();
  const base = text.slice(0, 19);
  if (zone === 'UTC' || zone === 'GMT' || (zone === '' && tz === undefined)) return `${base.slice(0, 10)}T${base.slice(11)}${ms}Z`;
  const key = `${base.slice(0, 13)}|${zone}|${tz ?? ''}`;
  let off = hourCache.get(key);
  if (off === undefined) {
    const localMs = Date.parse(`${base.slice(0, 10)}T${base.slice(11, 13)}:00:00Z`);
    if (Number.isNaN(localMs)) return null;
    off = numericOffsetMinutes(zone);
    if (off === null && tz !== undefined) {
      // Two passes: the offset at the guessed instant, then at the corrected one (DST edges).
      const first = zoneOffsetMinutes(tz, localMs);
      off = first === null ? null : zoneOffsetMinutes(tz, localMs - first * 60000);
    }
    if (off === null) off = ABBREV_MINUTES[zone] ?? null;
    if (hourCache.size > 4096) hourCache.clear();
    hourCache.set(key, off);
  }
  const local = Date.parse(`${base.slice(0, 10)}T${base.slice(11)}${ms}Z`);
  if (Number.isNaN(local)) return null;
  return new Date(local - (off ?? 0) * 60000).toISOString();
}

/** ISO-8601 UTC for `%n` epoch seconds with milliseconds (`1796047756.051`). */
export function epochToIso(text: string): string | null {
  const s = Number(text);
  return Number.isFinite(s) ? new Date(Math.round(s * 1000)).toISOString() : null;
}
