// `perfpipe parse tj` as bytes in, NDJSON bytes out: each framed event written by the byte path (tj-event-json.ts)
// or, for what it leaves, by the string path the parser runs (createTjFrameDecoder, then JSON.stringify of
// toJsonEvent), in file order. Pure like a parser: no I/O, errors returned as values.
import { isUtf8 } from 'node:buffer';
import { type BadRun, type Frame, type FramingSink, TjFramer } from '../../parsers/tj/framing.js';
import { createTjFrameDecoder, type TjFileContext, type TjFrameDecoder, toJsonEvent } from '../../parsers/tj/tj-parser.js';
import type { IngestError } from '../../schemas/ingest-error.js';
import { NdjsonBuffer } from './ndjson-buffer.js';
import type { NdjsonEncoder, NdjsonPiece } from './ndjson-encoder.js';
import { TjEventJsonWriter } from './tj-event-json.js';

/** The lines of framed events and the errors of bad runs, written as the framer hands them on. */
export class TjNdjsonLines implements FramingSink {
  readonly out = new NdjsonBuffer(2 << 20);
  private errors: IngestError[] = [];
  private readonly writer: TjEventJsonWriter;
  private readonly decoder: TjFrameDecoder;

  constructor(ctx: TjFileContext) {
    this.writer = new TjEventJsonWriter(ctx);
    this.decoder = createTjFrameDecoder(ctx);
  }

  frame(frame: Frame, window: Buffer, at: number): void {
    const end = at + frame.end - frame.start;
    if (isUtf8(window.subarray(at, end)) && this.writer.write(window, at, end, frame.start, this.out)) return;
    this.decoder.frame(frame, window, at);
    this.drain();
  }

  bad(run: BadRun, bytes: Buffer): void {
    this.decoder.bad(run, bytes);
    this.drain();
  }

  /** The lines and errors so far; starts afresh. */
  take(): NdjsonPiece {
    const piece = { ndjson: this.out.take(), errors: this.errors };
    this.errors = [];
    return piece;
  }

  /** What the string path produced, in order. */
  private drain(): void {
    const r = this.decoder.take();
    for (const e of r.events) this.out.record(toJsonEvent(e));
    for (const e of r.errors) this.errors.push(e);
  }
}

/** The whole job in the calling thread. */
export function createTjNdjsonEncoder(ctx: TjFileContext): NdjsonEncoder {
  const framer = new TjFramer(ctx.offset);
  const lines = new TjNdjsonLines(ctx);
  return {
    push(chunk) {
      framer.push(chunk, lines);
      return [lines.take()];
    },
    finish() {
      framer.finish(lines);
      return [lines.take()];
    },
  };
}
