// One scanned TJ event (parsers/tj/event-scanner.ts) written as its NDJSON line straight from the file's bytes: the
// line `JSON.stringify(toJsonEvent(event))` would give, without decoding a value to a JS string and encoding it back.
// Decoding and re-encoding was most of `parse tj`'s time (a 200 MB journal: framing 0.4 s, UTF-8 decoding and
// property strings 1.5 s, the props object and JSON 2+ s); here a value is copied once, escaped as JSON on the way.
//
// The rules are the string path's, byte for byte: propsObject + JSON.stringify for the object, whose names the scanner
// interns with their JSON key made once; ndjson tests hold both to identical bytes. An event the scanner declines, or
// one with a repeated name (propsObject gathers its values into an array) or over 1 MiB, returns false, and the string
// path prints it.
import { IsoMicrosFormatter } from '../../parsers/tj/event-time.js';
import type { TjEventScanner } from '../../parsers/tj/event-scanner.js';
import { CRLF_INSIDE, DOUBLED_DQUOTE, DOUBLED_SQUOTE } from '../../parsers/tj/property-ranges.js';
import type { TjName } from '../../parsers/tj/property-names.js';
import type { TjFileContext } from '../../parsers/tj/tj-parser.js';
import { JsonBytesWriter, writeUint } from './json-text.js';
import type { NdjsonBuffer } from './ndjson-buffer.js';

const COMMA = 0x2c;
const DQUOTE = 0x22;
const SQUOTE = 0x27;
const LF = 0x0a;
/** Frames above this go the string path: the byte path reserves 6 output bytes per input byte. */
const MAX_FRAME = 1 << 20;

const ascii = (text: string): Uint8Array => Buffer.from(text, 'latin1');
const EVENT_HEAD = ascii('{"event":"');
const TS = ascii('","ts":"');
const TS_START = ascii('","ts_start":"');
const DURATION = ascii('","duration_us":');
const DEPTH = ascii(',"depth":');
const LENGTH = ascii('},"length":');
const PROPS = ascii(',"props":{');

/** What the scanner keeps beside each property name for this writer: `"name":"`, as JSON.stringify writes the key. */
export interface JsonKey {
  /** Its bytes as little-endian words, the last one padded (JsonBytesWriter.words). */
  words: Int32Array;
  length: number;
}

export function jsonKey(name: string): JsonKey {
  const bytes = Buffer.from(`${JSON.stringify(name)}:"`);
  const padded = Buffer.alloc(Math.ceil(bytes.length / 4) * 4);
  bytes.copy(padded);
  const words = new Int32Array(padded.length / 4);
  for (let i = 0; i < words.length; i++) words[i] = padded.readInt32LE(i * 4);
  return { words, length: bytes.length };
}

export class TjEventJsonWriter {
  private readonly endTime = new IsoMicrosFormatter();
  private readonly startTime = new IsoMicrosFormatter();
  private readonly json = new JsonBytesWriter();
  /** `,"origin":{"host":…,"file_key":…,"offset":`: the same for every event of the file. */
  private readonly originHead: Buffer;

  constructor(ctx: TjFileContext) {
    const origin = JSON.stringify({ host: ctx.host, source: ctx.source, file: ctx.file, file_key: ctx.file_key });
    this.originHead = Buffer.from(`,"origin":${origin.slice(0, -1)},"offset":`);
  }

  /** Writes the line of the scanned event and its line feed; false, with nothing written, for the string path. */
  write(s: TjEventScanner<JsonKey>, out: NdjsonBuffer): boolean {
    const f = s.bytes;
    const ranges = s.ranges;
    if (s.repeats || f.length > MAX_FRAME || ranges === null) return false;
    out.reserve(f.length * 6 + this.originHead.length + 256);
    const buf = out.buf;
    let o = copy(EVENT_HEAD, buf, out.pos);
    for (let i = s.nameStart; i < s.nameEnd; i++) buf[o++] = f[i] as number; // [0-9A-Za-z_]: nothing to escape
    o = this.endTime.formatInto(s.endUs, buf, copy(TS, buf, o));
    o = this.startTime.formatInto(s.endUs - s.durationUs, buf, copy(TS_START, buf, o));
    o = writeUint(s.durationUs, buf, copy(DURATION, buf, o));
    o = writeUint(s.depth, buf, copy(DEPTH, buf, o));
    buf.set(this.originHead, o);
    o = writeUint(s.offset, buf, o + this.originHead.length);
    o = writeUint(f.length, buf, copy(LENGTH, buf, o));
    o = copy(PROPS, buf, o);
    const json = this.json;
    json.between(f, s.view, s.viewAt, buf);
    for (let i = 0; i < ranges.count; i++) {
      if (i > 0) buf[o++] = COMMA;
      const key = (s.propertyNames[i] as TjName<JsonKey>).meaning;
      o = json.words(key.words, key.length, o);
      const flags = ranges.flags(i);
      const quote = flags & DOUBLED_SQUOTE ? SQUOTE : flags & DOUBLED_DQUOTE ? DQUOTE : -1;
      o = json.value(ranges.valueStart(i), ranges.valueEnd(i), quote, (flags & CRLF_INSIDE) !== 0, o);
      buf[o++] = DQUOTE;
    }
    buf[o++] = 0x7d;
    buf[o++] = 0x7d;
    buf[o++] = LF;
    out.pos = o;
    return true;
  }
}

/** Copies a constant into `buf` at `o`; returns the index after it. */
function copy(bytes: Uint8Array, buf: Buffer, o: number): number {
  for (let i = 0; i < bytes.length; i++) buf[o++] = bytes[i] as number;
  return o;
}
