// The zone a technological journal's local times are in, written where the journal is: 1C writes local time with no
// zone (docs/tj-format.md), so a TJ tree read on another machine, or written by `perfpipe simulate`, needs it said.
// `perfpipe simulate` writes `timezone.txt` at the top of its TJ tree; a user may put one beside a copied journal.
// `ingest` and `run` take a given --tz (or a source's `tz`) first, then this file, then the machine's zone.
import { isValidTimeZone } from './event-time.js';

/** Name of the file, at the top of a TJ location, that holds the IANA zone of its times (one line). */
export const TJ_ZONE_FILE = 'timezone.txt';

/** The IANA zone this machine's clock is in (what a journal written here is in). */
export function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** The zone a TJ_ZONE_FILE's text names (its first line that is not blank or a # comment), or null. */
export function zoneFromFile(text: string): string | null {
  const line = text.split(/\r?\n/).map((l) => l.trim()).find((l) => l !== '' && !l.startsWith('#'));
  return line !== undefined && isValidTimeZone(line) ? line : null;
}

/** The file's text: the zone and a line that says what it is. */
export function zoneFileText(zone: string): string {
  return `${zone}\n# The time zone of this technological journal's local times (IANA); perfpipe ingest reads it when no --tz is given.\n`;
}
