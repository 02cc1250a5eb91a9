// The PostgreSQL parser as the pipeline runs it: PgEvents with the lock-wait episodes each entry closed attached
// (`lock_episodes`), and a `settled` offset that never falls inside an open wait.
//
// Why hold events back: a source restarts a fresh parser at its last acknowledged offset, and replays unacknowledged
// segments over exactly their byte ranges with the same dedup token. If a wait opened before that offset and closed
// after it, a fresh episode builder would not know the wait (a lock_timeout ERROR would close nothing, an `acquired`
// line would lose its holders) and the replayed segment would differ from the first attempt. So while a wait is
// open, every entry from its first `still waiting` line on (and every ingest error after it) is held, and `settled`
// stays at that line: a segment can only end where no wait is open, and a restart there rebuilds the same state.
// Waits are short (deadlock_timeout…lock_timeout), so the delay is too; a wait longer than `maxHoldBytes` of log is
// released anyway (bounded memory), which is the one case where a crash in that window loses its episode row.
// Not reproduced on restart: the holders' statements remembered from before the restart offset (content only; the
// row and its identity are the same, and ClickHouse keeps whichever attempt was inserted first).
import type { IngestError } from '../../schemas/ingest-error.js';
import type { PgEvent } from '../../schemas/pg-event.js';
import type { PgStreamEvent } from '../../schemas/pg-stream-event.js';
import type { IncrementalParser, ParseOutput } from '../parser.js';
import { createLockEpisodeBuilder } from './lock-episodes.js';

/** Log bytes held behind an open wait, at most, before they are released anyway. */
export const DEFAULT_MAX_HOLD_BYTES = 16 * 1024 * 1024;

export function createPgEpisodeStream(inner: IncrementalParser<PgEvent>, maxHoldBytes = DEFAULT_MAX_HOLD_BYTES): IncrementalParser<PgStreamEvent> {
  const builder = createLockEpisodeBuilder();
  let held: PgStreamEvent[] = [];
  let heldErrors: IngestError[] = [];

  const release = (out: ParseOutput<PgStreamEvent>): void => {
    for (const e of held) out.events.push(e);
    for (const e of heldErrors) out.errors.push(e);
    held = [];
    heldErrors = [];
  };

  const take = (r: ParseOutput<PgEvent>, out: ParseOutput<PgStreamEvent>): void => {
    for (const ev of r.events) {
      const s = ev as PgStreamEvent;
      s.lock_episodes = builder.push([ev]);
      held.push(s);
      const since = builder.openSince;
      // Decided per entry (its offset, not the chunk it came in), so any split of the input holds the same way.
      if (since === null || ev.origin.offset - (held[0] as PgStreamEvent).origin.offset > maxHoldBytes) release(out);
    }
    const first = held[0]?.origin.offset;
    for (const err of r.errors) {
      if (first !== undefined && err.offset >= first) heldErrors.push(err);
      else out.errors.push(err);
    }
  };

  return {
    push(chunk) {
      const out: ParseOutput<PgStreamEvent> = { events: [], errors: [] };
      take(inner.push(chunk), out);
      return out;
    },
    finish() {
      const out: ParseOutput<PgStreamEvent> = { events: [], errors: [] };
      take(inner.finish(), out);
      // Waits still open at the end of a file are not emitted: after a rotation the wait goes on in the next file,
      // whose `acquired` line makes the episode (with its total wait); the `still waiting` rows stay in pg_log.
      builder.finish();
      release(out);
      return out;
    },
    get settled() {
      const first = held[0]?.origin.offset ?? heldErrors[0]?.offset;
      return first === undefined ? inner.settled : Math.min(first, inner.settled);
    },
  };
}
