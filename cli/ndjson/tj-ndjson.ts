// `perfpipe parse tj` as bytes in, NDJSON bytes out: each framed event scanned (parsers/tj/event-scanner.ts) and
// written by the byte path (tj-event-json.ts) or, for what it leaves, by the string path the parser runs
// (createTjFrameDecoder, then JSON.stringify of toJsonEvent), in file order. Pure like a parser: no I/O, errors
// returned as values.
import { TjEventScanner } from '../../parsers/tj/event-scanner.js';
import { Found, TjFramer } from '../../parsers/tj/framing.js';
import { createTjFrameDecoder, type TjFileContext, type TjFrameDecoder, toJsonEvent } from '../../parsers/tj/tj-parser.js';
import type { IngestError } from '../../schemas/ingest-error.js';
import { NdjsonBuffer } from './ndjson-buffer.js';
import type { NdjsonEncoder, NdjsonPiece } from './ndjson-encoder.js';
import { type JsonKey, jsonKey, TjEventJsonWriter } from './tj-event-json.js';

/** The lines of framed events and the errors of bad runs, as the framer finds them. */
export class TjNdjsonLines {
  readonly out = new NdjsonBuffer(2 << 20);
  private errors: IngestError[] = [];
  private readonly scanner: TjEventScanner<JsonKey>;
  private readonly writer: TjEventJsonWriter;
  private readonly decoder: TjFrameDecoder;

  constructor(ctx: TjFileContext) {
    this.scanner = new TjEventScanner(ctx, jsonKey);
    this.writer = new TjEventJsonWriter(ctx);
    this.decoder = createTjFrameDecoder(ctx);
  }

  /** Writes everything the framer can find now. */
  writeFound(framer: TjFramer): void {
    for (let found = framer.next(); found !== Found.nothing; found = framer.next()) {
      if (found === Found.frame) {
        if (this.scanner.read(framer) && this.writer.write(this.scanner, this.out)) continue;
        this.decoder.frame(framer.frame, framer.window, framer.at);
      } else {
        this.decoder.bad(framer.run, framer.runBytes);
      }
      const r = this.decoder.take();
      for (const e of r.events) this.out.record(toJsonEvent(e));
      for (const e of r.errors) this.errors.push(e);
    }
  }

  /** The lines and errors so far; starts afresh. */
  take(): NdjsonPiece {
    const piece = { ndjson: this.out.take(), errors: this.errors };
    this.errors = [];
    return piece;
  }
}

/** The whole job in the calling thread. */
export function createTjNdjsonEncoder(ctx: TjFileContext): NdjsonEncoder {
  const framer = new TjFramer(ctx.offset);
  const lines = new TjNdjsonLines(ctx);
  return {
    push(chunk) {
      framer.push(chunk);
      lines.writeFound(framer);
      return [lines.take()];
    },
    finish() {
      framer.end();
      lines.writeFound(framer);
      return [lines.take()];
    },
  };
}
