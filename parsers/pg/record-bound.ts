// Bounds the bytes a reader may hold for one unfinished entry (docs/architecture.md §3: "a 100 MB event" must not stop the
// pipeline or grow memory without limit). Past the bound, the held bytes become one IngestError and reading resumes
// with a fresh reader at the next newline, the first place a new entry can begin. Split invariance holds for
// entries under the bound; past it, where the reader notices depends on chunk sizes (a csv record over the bound
// that holds newlines may resume at a different line). Not perfect, but it only concerns input that is broken anyway.
import type { FileContext } from '../parser.js';
import { ingestError, type EntryReader, type ReadOutput } from './reader.js';

export const DEFAULT_MAX_RECORD_BYTES = 32 * 1024 * 1024;

export function boundRecords(ctx: FileContext, make: (offset: number) => EntryReader, maxBytes: number): EntryReader {
  let reader = make(ctx.offset);
  let end = ctx.offset; // absolute offset after the last byte pushed
  let skip: { offset: number; length: number; excerpt: string } | null = null;

  const skipped = (out: ReadOutput): void => {
    if (skip === null) return;
    out.errors.push(ingestError(ctx, skip.offset, skip.length, 'oversized_record',
      `log entry longer than ${maxBytes} bytes without an end (runaway quote or binary data?); skipped to the next line`,
      skip.excerpt));
    skip = null;
  };

  return {
    push(chunk) {
      const out: ReadOutput = { entries: [], errors: [] };
      let rest = chunk;
      if (skip !== null) {
        const nl = chunk.indexOf(10);
        if (nl < 0) {
          skip.length += chunk.length;
          end += chunk.length;
          return out;
        }
        skip.length += nl + 1;
        end += nl + 1;
        skipped(out);
        reader = make(end);
        rest = chunk.subarray(nl + 1);
      }
      const r = reader.push(rest);
      end += rest.length;
      out.entries.push(...r.entries);
      out.errors.push(...r.errors);
      if (end - reader.settled > maxBytes) {
        // The excerpt is taken from this chunk: the start of the held bytes when they begin in it.
        const held = end - reader.settled;
        const excerpt = rest.subarray(Math.max(0, rest.length - held), Math.max(0, rest.length - held) + 512).toString('utf8');
        skip = { offset: reader.settled, length: held, excerpt };
      }
      return out;
    },
    finish() {
      if (skip !== null) {
        const out: ReadOutput = { entries: [], errors: [] };
        skipped(out);
        return out;
      }
      return reader.finish();
    },
    get settled() {
      return skip !== null ? skip.offset : reader.settled;
    },
  };
}
