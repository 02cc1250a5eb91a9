// atop flags shared by `ingest` and `run`: `--atop PATH` (repeatable), a file that `atop -P … INTERVAL >> FILE`
// appends to or a directory of such files; `--atop-raw DIR` (repeatable), a directory of `atop -w` raw logs
// (or one raw log) replayed with `atop -r`; `--atop-spawn INTERVAL` (`run` only), atop run by perfpipe every
// INTERVAL seconds. Values are checked by the sources' zod schemas (ingest/source/atop-*-config.ts).
import type { ConfigInput } from '../../ingest/config/config.js';

export const ATOP_OPTIONS = {
  atop: { type: 'string', multiple: true },
  'atop-raw': { type: 'string', multiple: true },
  'atop-spawn': { type: 'string' },
} as const;

type SourceInput = NonNullable<ConfigInput['sources']>[number];

export interface AtopFlagValues {
  atop?: string[];
  'atop-raw'?: string[];
  'atop-spawn'?: string;
}

/** One source per flag, defaults from the schemas. atop prints UTC epochs: no --tz applies. */
export function atopSourcesFromFlags(values: AtopFlagValues): SourceInput[] {
  const spawn = values['atop-spawn'];
  return [
    ...(values.atop ?? []).map((location) => ({ type: 'atop' as const, location })),
    ...(values['atop-raw'] ?? []).map((location) => ({ type: 'atop_raw' as const, location })),
    // A number when it reads as one, so the schema's message names the value as given ("10s", "0").
    ...(spawn === undefined ? [] : [{ type: 'atop_spawn' as const, interval_s: /^\d+$/.test(spawn) ? Number(spawn) : spawn as unknown as number }]),
  ];
}
