// TJ bytes → tj_events rows in RowBinary, straight from the framed bytes: the framer finds each event and where its
// properties are (parsers/tj/framing.ts), the scanner reads its header and names its properties
// (parsers/tj/event-scanner.ts), and the column writer copies each value where its row wants it (tj-column-writer.ts).
//
// An event the scanner or the column writer declines goes through the string path (createTjFrameDecoder +
// tjEventToRow), which also writes its errors; ingest/source/tj/tj-row-encoder.test.ts holds both paths to identical bytes
// on generated and corpus journals.
import type { IncrementalParser, ParseOutput } from '../../../parsers/parser.js';
import { TjEventScanner } from '../../../parsers/tj/event-scanner.js';
import { Found, TjFramer } from '../../../parsers/tj/framing.js';
import { createTjFrameDecoder, type TjFileContext } from '../../../parsers/tj/tj-parser.js';
import { callFactOfRow, type CallFactSink } from '../../../parsers/tj/calls/call-facts.js';
import type { IngestError } from '../../../schemas/ingest-error.js';
import type { RowBinaryWriter } from '../../../schemas/row-binary.js';
import { TJ_EVENTS } from '../../../schemas/tj-row.js';
import { TjColumnWriter } from './tj-column-writer.js';
import { processFromPath, tjEventToRow } from './tj-event-to-row.js';
import { columnRule } from './tj-names.js';

/** What the encoder writes into: a table writer and a count of the rows it wrote there. */
export interface TjRowTarget {
  readonly w: RowBinaryWriter;
  /** Called once per row written straight into `w`. */
  wrote(): void;
  /** Where the facts of CALL, DB and waited TLOCK events go (the per-thread accountant, docs/tj-format.md §4.3). */
  readonly calls?: CallFactSink;
}

export function createTjRowParser(ctx: TjFileContext, target: TjRowTarget): IncrementalParser<never> {
  const framer = new TjFramer(ctx.offset);
  const scanner = new TjEventScanner(ctx, columnRule);
  const columns = new TjColumnWriter(ctx);
  const decoder = createTjFrameDecoder(ctx);
  const proc = processFromPath(ctx.file);
  const calls = target.calls;
  let errors: IngestError[] = [];

  /** Rows and errors of everything the framer can find now. */
  function encodeFound(): ParseOutput<never> {
    for (let found = framer.next(); found !== Found.nothing; found = framer.next()) {
      if (found === Found.frame) {
        if (scanner.read(framer) && columns.take(scanner)) {
          columns.write(target.w, scanner);
          target.wrote();
          if (calls !== undefined) {
            const part = columns.callFact(scanner);
            if (part !== null) calls.fact(ctx.file, ctx.file_key, ctx.offset, part.fact, part.line);
          }
          continue;
        }
        decoder.frame(framer.frame, framer.window, framer.at);
      } else {
        decoder.bad(framer.run, framer.runBytes);
      }
      const out = decoder.take();
      for (const e of out.events) {
        const row = tjEventToRow(e, proc);
        TJ_EVENTS.writeRow(target.w, row);
        target.wrote();
        if (calls !== undefined) {
          const fact = callFactOfRow(row);
          if (fact.kind !== 'other') calls.fact(ctx.file, ctx.file_key, ctx.offset, fact, fact.kind === 'call' ? row : null);
        }
      }
      for (const e of out.errors) errors.push(e);
    }
    const out = { events: [] as never[], errors };
    errors = [];
    return out;
  }

  return {
    push(chunk: Buffer) {
      framer.push(chunk);
      return encodeFound();
    },
    finish() {
      framer.end();
      return encodeFound();
    },
    get settled() {
      return framer.settled;
    },
    idle() {
      framer.idle();
      scanner.idle();
    },
    // The framer appends each chunk to its own window (framing.ts): the caller's buffer is not kept.
    copiesInput: true,
  };
}
