// ISO-8601 UTC (`2026-11-30T10:00:00.123456Z`) → the DateTime64 text ClickHouse reads in JSON input
// (`2026-11-30 10:00:00.123456`), keeping `digits` fraction digits (3 for ms columns, 6 for µs).
export function clickhouseTime(iso: string, digits: 3 | 6 = 3): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 20 + digits)}`;
}
