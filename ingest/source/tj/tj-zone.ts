// The zone of a TJ location whose source was given none: its `timezone.txt` (parsers/tj/zone-file.ts), else this
// machine's. Read once, when the source is built.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { systemTimeZone, TJ_ZONE_FILE, zoneFromFile } from '../../../parsers/tj/zone-file.js';

/** Where a zone file may sit: the location, or for one journal file given directly its folder's parent and its folder. */
function candidates(location: string): string[] {
  if (!statSync(location, { throwIfNoEntry: false })?.isFile()) return [location];
  const folder = dirname(location);
  return [dirname(folder), folder];
}

export function tjLocationZone(location: string): { zone: string; from: string | null } {
  for (const dir of candidates(location)) {
    const file = join(dir, TJ_ZONE_FILE);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const zone = zoneFromFile(text);
    if (zone !== null) return { zone, from: file };
  }
  return { zone: systemTimeZone(), from: null };
}
