// Where an event or an ingest error came from: the unit every guarantee is stated in (docs/architecture.md §1, §3).
import { z } from 'zod';

export const OriginSchema = z.strictObject({
  /** Host the source file lives on (config `host`, default the OS hostname). */
  host: z.string(),
  /** Source kind that read it: `tj`, `pg`, `atop`, `apdex`. */
  source: z.string(),
  /** Path of the file as it was seen when read. */
  file: z.string(),
  /** Identity of the file: content fingerprint plus device/inode (ingest/source/fingerprint.ts). */
  file_key: z.string(),
  /** Byte offset of the first byte of the record in the file (BOM included in the count). */
  offset: z.number().int().nonnegative(),
});
export type Origin = z.infer<typeof OriginSchema>;
