// The lines of `parse pg`: each entry with the lock-wait episodes it closed, as createPgEpisodeStream attaches them
// (event by event, in file order), without its holding back of entries while a wait is open: that serves restarts
// of a tailing source, and a whole file printed in order needs none of it (the holding took 0.2 s of a 3.4 s run
// over the 100 MB bench log). The entries are printed by RecordJsonWriter, as JSON.stringify would print them.
import type { IncrementalParser } from '../../parsers/parser.js';
import type { LockEpisodeBuilder } from '../../parsers/pg/lock-episodes.js';
import type { PgEvent } from '../../schemas/pg-event.js';
import type { PgStreamEvent } from '../../schemas/pg-stream-event.js';
import { NdjsonBuffer } from './ndjson-buffer.js';
import type { NdjsonEncoder, NdjsonPiece } from './ndjson-encoder.js';
import { RecordJsonWriter } from './record-json.js';

export function pgLines(parser: IncrementalParser<PgEvent>, builder: LockEpisodeBuilder): NdjsonEncoder {
  const out = new NdjsonBuffer();
  const writer = new RecordJsonWriter();
  const write = ({ events, errors }: { events: PgEvent[]; errors: NdjsonPiece['errors'] }): NdjsonPiece[] => {
    for (const e of events) {
      // `lock_episodes` is added last, so JSON prints it last, as for the episode stream's events.
      (e as PgStreamEvent).lock_episodes = builder.push([e]);
      writer.line(e, out);
    }
    return [{ ndjson: out.take(), errors }];
  };
  return {
    push: (chunk) => write(parser.push(chunk)),
    finish: () => write(parser.finish()),
  };
}
