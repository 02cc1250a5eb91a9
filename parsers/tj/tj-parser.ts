// The TJ parser: framing (framing.ts) finds event byte ranges, the frame decoder here turns each event into a
// TjEvent, decoding its bytes once; bytes that form no event become IngestErrors. Pure: no I/O, no clock.
import { isUtf8 } from 'node:buffer';
import type { FileContext, IncrementalParser, ParseOutput } from '../parser.js';
import type { IngestError } from '../../schemas/ingest-error.js';
import { boundedExcerpt } from '../../schemas/excerpt.js';
import type { TjEvent, TjEventJson } from '../../schemas/tj-event.js';
import { type BadRun, Found, type Frame, TjFramer } from './framing.js';
import { parseProperties, propsObject } from './properties.js';
import { hourStartUs, IsoMicrosFormatter, localToUtcMs } from './event-time.js';

export interface TjFileContext extends FileContext {
  /** `yymmddhh` of the file (from its name or `--hour`); null when unknown. */
  hour: string | null;
  /** IANA zone the 1C server writes local time in. */
  tz: string;
}

const d = (text: string, i: number): number => text.charCodeAt(i) - 48;

/**
 * The string path from framed bytes to events: each frame decoded once into a TjEvent, each bad run into an
 * IngestError, handed over by `take`. createTjParser runs every frame through it; the byte-level readers (the row
 * encoder, `parse tj`'s JSON writer) run the frames their scanner declines (event-scanner.ts).
 */
export interface TjFrameDecoder {
  /** The event whose bytes are `window[at, at + frame.end - frame.start)`. */
  frame(frame: Frame, window: Buffer, at: number): void;
  bad(run: BadRun, bytes: Buffer): void;
  /** What the frames and bad runs given so far produced; empties the decoder. */
  take(): ParseOutput<TjEvent>;
}

/** Hands everything the framer can find now to the decoder. */
export function decodeFound(framer: TjFramer, decoder: TjFrameDecoder): void {
  for (let found = framer.next(); found !== Found.nothing; found = framer.next()) {
    if (found === Found.frame) decoder.frame(framer.frame, framer.window, framer.at);
    else decoder.bad(framer.run, framer.runBytes);
  }
}

export function createTjFrameDecoder(ctx: TjFileContext): TjFrameDecoder {
  const hourUs = ctx.hour === null ? null : hourStartUs(ctx.hour, ctx.tz);
  const origin = (offset: number) => ({ host: ctx.host, source: ctx.source, file: ctx.file, file_key: ctx.file_key, offset });
  let out: ParseOutput<TjEvent> = { events: [], errors: [] };
  const endTime = new IsoMicrosFormatter();
  const startTime = new IsoMicrosFormatter();

  const error = (kind: string, offset: number, length: number, reason: string, excerpt: string, canContinue = true): IngestError => ({
    host: ctx.host, source: ctx.source, file: ctx.file, file_key: ctx.file_key,
    offset, length, kind, reason, excerpt: boundedExcerpt(excerpt), can_continue: canContinue,
  });

  const decoder: TjFrameDecoder = {
    frame(frame: Frame, window: Buffer, at: number): void {
      const text = window.toString('utf8', at, at + frame.end - frame.start);
      if (text.includes('\uFFFD') && !isUtf8(window.subarray(at, at + frame.end - frame.start))) {
        const bad = firstInvalidUtf8(text);
        out.errors.push(error('invalid_utf8', frame.start + bad, 1,
          `${ctx.file}: byte ${frame.start + bad} is not valid UTF-8; the event at offset ${frame.start} was kept with U+FFFD in its place`,
          text.slice(0, 200)));
      }
      const event = decodeEvent(text, frame);
      if (typeof event === 'string') {
        out.errors.push(error('bad_header', frame.start, frame.end - frame.start, `${ctx.file} at offset ${frame.start}: ${event}`, text));
      } else {
        out.events.push(event);
      }
    },
    bad(run: BadRun, bytes: Buffer): void {
      const text = bytes.toString('utf8');
      if (run.kind === 'garbage_line') {
        const lines = text.split('\n').filter((l) => l.trim() !== '').length;
        out.errors.push(error('garbage_line', run.start, run.end - run.start,
          `${ctx.file} at offset ${run.start}: ${lines} line(s) that do not start with a TJ event header (expected "mm:ss.ffffff-duration,EVENT,depth,…") and are not inside a quoted value; skipped`,
          text));
      } else {
        out.errors.push(error('unterminated_quote', run.start, run.end - run.start,
          `${ctx.file} at offset ${run.start}: a quoted value opened at offset ${run.quoteAt} is never closed before the end of the file; the event was dropped and reading resumed at offset ${run.end}`,
          text));
      }
    },
    take(): ParseOutput<TjEvent> {
      const r = out;
      out = { events: [], errors: [] };
      return r;
    },
  };

  function decodeEvent(text: string, frame: Frame): TjEvent | string {
    let p: number;
    let endUs: number;
    let fracDigits: number;
    if (text.charCodeAt(2) === 0x3a) {
      const mm = d(text, 0) * 10 + d(text, 1);
      const ss = d(text, 3) * 10 + d(text, 4);
      fracDigits = text.charCodeAt(10) === 0x2d ? 4 : 6;
      let frac = 0;
      for (let i = 6; i < 6 + fracDigits; i++) frac = frac * 10 + d(text, i);
      if (fracDigits === 4) frac *= 100;
      if (hourUs === null) return 'the hour of this file is unknown (its name is not yymmddhh.log); give it with --hour';
      endUs = hourUs + (mm * 60 + ss) * 1_000_000 + frac;
      p = 6 + fracDigits + 1;
    } else {
      // Plain placement: yyyy-mm-ddThh:mm:ss.ffffff in local time.
      const num = (a: number, b: number): number => Number(text.slice(a, b));
      const ms = localToUtcMs(num(0, 4), num(5, 7), num(8, 10), num(11, 13), num(14, 16), num(17, 19), ctx.tz);
      fracDigits = 6;
      endUs = ms * 1000 + num(20, 26);
      p = 27;
    }
    const comma1 = text.indexOf(',', p);
    let duration = Number(text.slice(p, comma1));
    if (fracDigits === 4) duration *= 100; // 8.2: 1/10000 s
    const comma2 = text.indexOf(',', comma1 + 1);
    const event = text.slice(comma1 + 1, comma2);
    const comma3 = text.indexOf(',', comma2 + 1);
    const depthEnd = comma3 < 0 ? text.length : comma3;
    const depth = Number(text.slice(comma2 + 1, depthEnd));
    if (!Number.isSafeInteger(duration) || !Number.isSafeInteger(depth)) return 'duration or depth is not a number';
    const properties = comma3 < 0 ? [] : parseProperties(text, comma3, (name, open, stray, close) => strayQuote(text, frame, name, open, stray, close));
    return {
      event,
      ts: endTime.format(endUs),
      ts_start: startTime.format(endUs - duration),
      duration_us: duration,
      depth,
      properties,
      origin: origin(frame.start),
      length: frame.end - frame.start,
    };
  }

  /** A value whose quote is followed by text (docs/tj-format.md §3.2): the event is kept, the error says where. */
  function strayQuote(text: string, frame: Frame, name: string, open: number, stray: number, close: number): void {
    const at = (i: number): number => frame.start + Buffer.byteLength(text.slice(0, i));
    const offset = at(stray + 1);
    const how = close >= 0
      ? `the quote was kept in the value, which runs to the quote at offset ${at(close)}`
      : 'no quote closes it before the next event, so the value was read to the next comma with the text after the quote kept';
    out.errors.push(error('text_after_quote', offset, 0,
      `${ctx.file} at offset ${offset}: the quote before this byte is followed by text, not by a comma or a line end, so it does not close the value of ${name} (opened at offset ${at(open)}); ${how}`,
      text.slice(Math.max(0, stray - 100), stray + 100)));
  }

  return decoder;
}

export function createTjParser(ctx: TjFileContext): IncrementalParser<TjEvent> {
  const framer = new TjFramer(ctx.offset);
  const decoder = createTjFrameDecoder(ctx);
  return {
    push(chunk: Buffer) {
      framer.push(chunk);
      decodeFound(framer, decoder);
      return decoder.take();
    },
    finish() {
      framer.end();
      decodeFound(framer, decoder);
      return decoder.take();
    },
    get settled() {
      return framer.settled;
    },
  };
}

/** Byte index of the first replacement character: everything before it decoded cleanly. */
function firstInvalidUtf8(text: string): number {
  return Buffer.byteLength(text.slice(0, text.indexOf('\uFFFD')));
}

/** The NDJSON view of an event: properties as an object keyed by original name. */
export function toJsonEvent(e: TjEvent): TjEventJson {
  const { properties, ...rest } = e;
  return { ...rest, props: propsObject(properties) };
}
