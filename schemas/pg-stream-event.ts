// What a `pg` segment carries: a PgEvent plus the lock-wait episodes that this entry closed (usually none), so the
// segment alone decides its pg_log and pg_lock_waits rows (parsers/pg/episode-stream.ts).
import { z } from 'zod';
import { PgEventSchema } from './pg-event.js';
import { PgLockEpisodeSchema } from './pg-lock-episode.js';

export const PgStreamEventSchema = PgEventSchema.extend({
  /** Episodes whose wait this entry ended (`acquired`, the deadlock/timeout ERROR, any other entry of the pid). */
  lock_episodes: z.array(PgLockEpisodeSchema),
});
export type PgStreamEvent = z.infer<typeof PgStreamEventSchema>;
