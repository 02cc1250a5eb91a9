// The APDEX export's hand-written XML tokenizer, shipped until issue #15 item 8 and kept here only so that
// bench/library-candidates.ts can time it against the shipped saxes + iconv-lite reader (parsers/apdex/xml-tokens.ts)
// on the same input. Same tokens, same offsets, same bad-tag rule; the figures of the switch are in that file.
import { detectEncoding, Encodings, type Encoding } from '../parsers/apdex/text-encoding.js';
import type { XmlToken, XmlTokenizer } from '../parsers/apdex/xml-tokens.js';
import { decodeEntities, parseTag } from './hand-written-xml-tag.js';

/** Longest markup kept waiting for its `>`: a longer one is reported and skipped (bounded memory). */
export const MAX_MARKUP_UNITS = 1 << 20;

const LT = 0x3c;
const GT = 0x3e;
const QUOT = 0x22;
const APOS = 0x27;
const codes = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));
/** Markup that is not a tag: what opens it, what closes it, and whether its content is text (CDATA). */
const SPECIALS = [
  { open: codes('<![CDATA['), close: codes(']]>'), text: true },
  { open: codes('<!--'), close: codes('-->'), text: false },
  { open: codes('<?'), close: codes('?>'), text: false },
  { open: codes('<!'), close: codes('>'), text: false },
] as const;
const LONGEST_OPEN = 9;

/**
 * Bytes are kept from the first unit not yet turned into a token; `base` is the file offset of that
 * byte. A token is emitted only when its end is seen (text ends at the next `<`), so any split of
 * the input gives the same tokens. Offsets are file byte offsets, BOM included.
 */
export function createHandWrittenXmlTokenizer(startOffset: number, encoding?: Encoding): XmlTokenizer {
  let buf: Buffer = Buffer.alloc(0);
  let base = startOffset;
  let enc: Encoding | null = encoding ?? null;

  const scan = (final: boolean): XmlToken[] => {
    const out: XmlToken[] = [];
    if (enc === null) {
      const d = detectEncoding(buf, final);
      if (d === null) return out;
      enc = d.encoding;
      buf = buf.subarray(d.bom);
      base += d.bom;
    }
    const e: Encoding = enc;
    const w = unitWidth(e);
    const n = Math.floor(buf.length / w);
    const u = (i: number): number => unitAt(buf, e, i);
    const at = (i: number): number => base + i * w;
    const matches = (i: number, seq: readonly number[]): boolean => seq.every((c, k) => i + k < n && u(i + k) === c);
    const find = (seq: readonly number[], from: number): number => {
      for (let j = from; j + seq.length <= n; j++) if (matches(j, seq)) return j;
      return -1;
    };
    let i = 0;
    while (i < n) {
      if (u(i) !== LT) {
        let j = i;
        while (j < n && u(j) !== LT) j++;
        if (j === n && !final) break;
        out.push({ kind: 'text', text: decodeEntities(decodeUnits(buf, e, i, j).replace(/\r\n?/g, '\n')), offset: at(i), end: at(j) });
        i = j;
        continue;
      }
      if (!final && n - i < LONGEST_OPEN && find([GT], i) < 0) break; // cannot tell `<!` from `<![CDATA[` yet
      const special = SPECIALS.find((s) => matches(i, s.open));
      let stop: number;
      if (special !== undefined) {
        const close = find(special.close, i + special.open.length);
        stop = close < 0 ? -1 : close + special.close.length;
        if (stop >= 0 && special.text) {
          out.push({ kind: 'text', text: decodeUnits(buf, e, i + special.open.length, close), offset: at(i), end: at(stop) });
        }
      } else {
        stop = tagEnd(u, i + 1, n);
        if (stop >= 0 && u(stop - 1) === GT) {
          out.push({ ...parseTag(decodeUnits(buf, e, i + 1, stop - 1)), offset: at(i), end: at(stop) } as XmlToken);
        } else if (stop >= 0) {
          out.push({ kind: 'bad', reason: 'a tag is cut by the next `<` before its closing `>`', excerpt: decodeUnits(buf, e, i, stop), offset: at(i), end: at(stop) });
        }
      }
      if (stop >= 0) { i = stop; continue; }
      if (final || n - i > MAX_MARKUP_UNITS) {
        // Unclosed markup: report it whole; the reader resyncs at whatever follows.
        out.push({ kind: 'bad', reason: final ? 'the file ends inside markup that was never closed with `>`' : `markup longer than ${MAX_MARKUP_UNITS} characters without a closing \`>\``, excerpt: decodeUnits(buf, e, i, Math.min(n, i + 512)), offset: at(i), end: at(n) });
        i = n;
      }
      break;
    }
    buf = buf.subarray(i * w);
    base += i * w;
    if (final && buf.length > 0) {
      out.push({ kind: 'bad', reason: 'the file ends with half a UTF-16 character', excerpt: '', offset: base, end: base + buf.length });
      base += buf.length;
      buf = Buffer.alloc(0);
    }
    return out;
  };

  return {
    push(chunk) {
      buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
      return scan(false);
    },
    finish: () => scan(true),
  };
}

/** Unit index just past the `>` that closes a tag opened before `from`, skipping quoted values; -1 if not seen. */
function tagEnd(u: (i: number) => number, from: number, n: number): number {
  let quote = 0;
  for (let j = from; j < n; j++) {
    const c = u(j);
    if (quote !== 0) { if (c === quote) quote = 0; continue; }
    if (c === QUOT || c === APOS) quote = c;
    else if (c === GT) return j + 1;
    else if (c === LT) return j; // a `<` inside a tag: the tag is broken; end it here so the next one is read
  }
  return -1;
}

/** Bytes per code unit the tokenizer steps by. */
export function unitWidth(e: Encoding): 1 | 2 {
  return e === Encodings.Utf8 ? 1 : 2;
}

/** The code unit at unit index i (a byte for UTF-8: every XML delimiter is ASCII there). */
export function unitAt(buf: Buffer, e: Encoding, i: number): number {
  if (e === Encodings.Utf8) return buf[i] as number;
  return e === Encodings.Utf16le ? buf.readUInt16LE(2 * i) : buf.readUInt16BE(2 * i);
}

/** Text of units [from, to). Invalid UTF-8 turns into U+FFFD rather than failing the record. */
export function decodeUnits(buf: Buffer, e: Encoding, from: number, to: number): string {
  if (e === Encodings.Utf8) return buf.toString('utf8', from, to);
  const bytes = buf.subarray(2 * from, 2 * to);
  if (e === Encodings.Utf16le) return bytes.toString('utf16le');
  const swapped = Buffer.from(bytes);
  swapped.swap16();
  return swapped.toString('utf16le');
}
