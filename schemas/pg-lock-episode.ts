// One lock wait of one PostgreSQL backend, from its first `still waiting` to how the wait ended (lock-episodes.ts).
import { z } from 'zod';
import { OriginSchema } from './origin.js';

export const PG_LOCK_OUTCOMES = ['acquired', 'deadlock', 'lock_timeout', 'statement_timeout', 'other'] as const;

export const PgLockEpisodeSchema = z.strictObject({
  /** When the wait began: first line's ts minus the wait it reports (ISO-8601 UTC, ms). */
  ts_start: z.string().nullable(),
  /** ts of the entry that ended the episode. */
  ts_end: z.string().nullable(),
  pid: z.number().int(),
  mode: z.string().nullable(),
  object: z.string(),
  object_kind: z.string(),
  relation_oid: z.number().int().nullable(),
  database_oid: z.number().int().nullable(),
  outcome: z.enum(PG_LOCK_OUTCOMES),
  /** Total wait from `acquired … after D ms`; null unless acquired. */
  wait_ms: z.number().nullable(),
  holder_pids: z.array(z.number().int()),
  queue_pids: z.array(z.number().int()),
  /** Holder pid → its last statements seen before/around the wait (oldest first). */
  holder_statements: z.record(z.string(), z.array(z.string())),
  statement: z.string().nullable(),
  user: z.string().nullable(),
  database: z.string().nullable(),
  application: z.string().nullable(),
  session_id: z.string().nullable(),
  /** Where the first wait line sits. */
  origin: OriginSchema,
});
export type PgLockEpisode = z.infer<typeof PgLockEpisodeSchema>;
