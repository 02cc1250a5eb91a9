// Configuration of an `atop_spawn` source: perfpipe runs `atop -P LABELS INTERVAL` itself and reads its output as a
// stream (`run` and `agent` only). Every key with its unit and default (this block is the user doc).
import { z } from 'zod';
import { ATOP_STORED_LABELS, AtopLabelsSchema } from './atop-labels.js';

// A refinement, not .int(): a fraction then gets this message instead of config.ts's generic type message.
const seconds = (what: string) => z.number()
  .min(1, { error: (issue) => `${JSON.stringify(issue.input)} is too small; expected ${what}` })
  .refine(Number.isInteger, { error: (issue) => `${JSON.stringify(issue.input)} is not whole; expected ${what}` });

export const AtopSpawnSourceConfigSchema = z.strictObject({
  type: z.literal('atop_spawn'),
  /** The atop executable to run: a path, or a name looked up on PATH. Default `atop`. */
  location: z.string().min(1).default('atop'),
  /** Seconds between samples, atop's `interval` argument. Required. */
  interval_s: seconds('whole seconds >= 1, e.g. 10'),
  /** Labels asked of `atop -P`. Default the ones perfpipe stores (ingest/source/atop/atop-labels.ts). */
  labels: AtopLabelsSchema.default(() => [...ATOP_STORED_LABELS]),
  /** Longest wait, in seconds, before atop is started again after it died; the wait doubles from 1 s. Default 60. */
  restart_backoff_max_s: seconds('whole seconds >= 1').default(60),
});
export type AtopSpawnSourceConfig = z.infer<typeof AtopSpawnSourceConfigSchema>;
