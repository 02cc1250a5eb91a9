// Holds an atop parser's records back until their sample is closed. createAtopParser emits records line by line
// but moves `settled` only at a sample's SEP (parsers/atop/README.md); a file source cuts segments at `settled`,
// so without holding, a segment would carry the first lines of the next sample while its range ends before them:
// the sink would derive half a sample, and a restart at `settled` would read those lines into a second segment.
// Here a record or error is released only once `settled` has passed its offset, which keeps the parser contract
// (parsers/parser.ts: everything before `settled` was emitted, nothing after it).
import type { IncrementalParser, ParseOutput } from '../../../parsers/parser.js';
import type { AtopRecord } from '../../../schemas/atop-record.js';
import type { IngestError } from '../../../schemas/ingest-error.js';

export function holdUntilSampleEnd(inner: IncrementalParser<AtopRecord>): IncrementalParser<AtopRecord> {
  let events: AtopRecord[] = [];
  let errors: IngestError[] = [];
  const release = (out: ParseOutput<AtopRecord>, all: boolean): ParseOutput<AtopRecord> => {
    events.push(...out.events);
    errors.push(...out.errors);
    const settled = inner.settled;
    const ready: ParseOutput<AtopRecord> = {
      events: all ? events : events.filter((e) => e.origin.offset < settled),
      errors: all ? errors : errors.filter((e) => e.offset < settled),
    };
    events = all ? [] : events.filter((e) => e.origin.offset >= settled);
    errors = all ? [] : errors.filter((e) => e.offset >= settled);
    return ready;
  };
  return {
    push: (chunk) => release(inner.push(chunk), false),
    finish: () => release(inner.finish(), true),
    get settled() { return inner.settled; },
  };
}
