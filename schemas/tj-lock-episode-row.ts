// One row of `tj_lock_episodes` (queries/ddl/051_lock_episodes.sql): a 1C managed-lock victim event with its culprits
// decided (docs/tj-format.md §5.5). The lock resolver (ingest/locks/) writes these rows as JSON; reports read them.
// schemas/ddl-agreement.test.ts holds this schema and the DDL in step.
import { z } from 'zod';

/** ClickHouse DateTime64(6) text `YYYY-MM-DD hh:mm:ss.ffffff` (UTC). */
export const dt64us = z.string().regex(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/);
/** A UInt64 as ClickHouse writes it in JSON (a string) or as a safe integer. */
export const u64 = z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/)]);
const flag = z.number().int().min(0).max(1);

export const EPISODE_STATUSES = ['pending', 'partial', 'settled', 'complete'] as const;
export type EpisodeStatus = (typeof EPISODE_STATUSES)[number];
/** A string, as the column is (the DDL agreement test maps zod strings). */
export const episodeStatus = z.string().regex(/^(pending|partial|settled|complete)$/);

/** One culprit connection of a wait or timeout (waiter = the victim), or one deadlock edge. Times of what was not found are the epoch. */
export const LockCulpritEntrySchema = z.strictObject({
  waiter: u64,
  holder: u64,
  /** A deadlock edge's space, mode and fields; '' for a wait's or timeout's culprit. */
  space: z.string(),
  mode: z.string(),
  item: z.string(),
  /** 0: no culprit row for this edge (the edge split differently than the lookup's); the rest is empty. */
  found: flag,
  /** User and first context line of the culprit's last event before the victim's. */
  user: z.string(),
  context: z.string(),
  tx_found: flag,
  tx_start: dt64us,
  tx_user: z.string(),
  tx_context: z.string(),
  tx_end_found: flag,
  tx_end: dt64us,
  tx_end_func: z.string(),
  lock_found: flag,
  lock_ts: dt64us,
  lock_region: z.string(),
  lock_mode: z.string(),
  lock_text: z.string(),
  lock_context: z.string(),
  /** exact | escalation | overlap, '' when none (parsers/tj/locks/lock-conflict.ts). */
  lock_match: z.string(),
});
export type LockCulpritEntry = z.infer<typeof LockCulpritEntrySchema>;

export const TjLockEpisodeRowSchema = z.strictObject({
  kind: z.string().regex(/^(wait|timeout|deadlock)$/),
  ts: dt64us,
  file_key: z.string(),
  file_offset: z.number().int().nonnegative(),
  infobase: z.string(),
  victim_connect_id: u64,
  victim_user: z.string(),
  victim_context: z.string(),
  regions: z.array(z.string()),
  wait_us: z.number().int().nonnegative(),
  ref_ts: dt64us,
  requested_regions: z.array(z.string()),
  requested_locks: z.string(),
  wait_connections: z.array(u64),
  deadlock_intersections: z.string(),
  status: episodeStatus,
  culprits: z.array(LockCulpritEntrySchema),
  version: z.number().int().nonnegative(),
});
export type TjLockEpisodeRow = z.infer<typeof TjLockEpisodeRowSchema>;
