// `--atop PATH` (repeatable): a file that `atop -P … INTERVAL >> FILE` appends to, or a directory of such files,
// shared by `ingest` and `run`. Values are checked by the source's zod schema (ingest/source/atop-source-config.ts).
import type { ConfigInput } from '../config.js';

export const ATOP_OPTIONS = {
  atop: { type: 'string', multiple: true },
} as const;

type SourceInput = NonNullable<ConfigInput['sources']>[number];

/** One `type: atop` source per `--atop PATH`, defaults from its schema. atop prints UTC epochs: no --tz applies. */
export function atopSourcesFromFlags(values: { atop?: string[] }): SourceInput[] {
  return (values.atop ?? []).map((location) => ({ type: 'atop' as const, location }));
}
