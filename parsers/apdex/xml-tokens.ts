// XML tokens of an APDEX export read by saxes (issue #15 item 8), with what saxes does not give: file byte offsets
// per token and a broken tag reported as a token of its own before reading on.
//
// Why the library: bench/library-candidates.ts (an export file of 1000 measurements from simulate/apdex-export.ts,
// 64 KB chunks, 150 files, 2 shared cores under load, two runs) times the whole parser — records, offsets, ids — at
// 4.1–5.0 MB/s in UTF-8 and 10.5–12.7 MB/s in UTF-16LE on saxes 6 + iconv-lite 0.7, against 3.3–3.6 and 7.7–8.6 MB/s
// on the hand-written tokenizer it replaced (kept as bench/hand-written-xml-tokens.ts for that comparison); tokenizing
// alone 9.6–12.6 vs 7.2–8.5 (UTF-8) and 23–31 vs 13 MB/s (UTF-16LE). What is left is the export reader's own work
// (records and event ids), now the larger part of the time.
//
// Offsets: saxes counts UTF-16 code units of the text written to it; bytes are decoded here chunk by chunk (UTF-8
// with an exact byte count, utf8-chars.ts; iconv-lite for UTF-16) and a position is turned back into a byte offset by
// a cursor that walks forward over the text between two positions asked for (UTF-8) or doubles it (UTF-16).
// Errors: saxes goes on after an error but, as its README says, may read the rest wrongly (a cut attribute value turns
// the quotes of every following tag inside out). So an error inside a tag stops that parser: the tag becomes a `bad`
// token from its `<` to its `>` (or to the next `<` when it is cut), and a fresh parser reads on from there; an end
// tag whose start that fresh parser never saw is still handed on. Errors about structure only (text outside the
// root, an end tag with no start, as a reader started at a checkpoint inside the file sees) are not errors here: the
// export reader decides what elements mean.
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import iconv from 'iconv-lite';
import { detectEncoding, Encodings, type Encoding } from './text-encoding.js';
import { decodeUtf8, incompleteTail } from './utf8-chars.js';

export type XmlToken =
  | { kind: 'start'; name: string; attrs: Record<string, string>; selfClosing: boolean; offset: number; end: number }
  | { kind: 'end'; name: string; offset: number; end: number }
  | { kind: 'text'; text: string; offset: number; end: number }
  | { kind: 'bad'; reason: string; excerpt: string; offset: number; end: number };

export interface XmlTokenizer {
  push(chunk: Buffer): XmlToken[];
  finish(): XmlToken[];
}

/** Longest markup kept waiting for its `>`: a longer one is reported and skipped (bounded memory). */
export const MAX_MARKUP_UNITS = 1 << 20;

const LT = 0x3c;
const GT = 0x3e;
const QUOT = 0x22;
const APOS = 0x27;

/** Thrown from saxes' error handler to stop it at a broken tag; `start` is the stream position of the tag's `<`. */
class BrokenTag {
  constructor(readonly start: number, readonly reason: string) {}
}

const local = (name: string): string => name.slice(name.indexOf(':') + 1);
const STRUCTURE_ONLY = /^(unmatched closing tag|unexpected close tag|text data outside of root node|documents may contain only one root|undefined entity|malformed character entity|disallowed character in entity name|the string "\]\]>" is disallowed|an XML declaration must be at the start|the XML declaration must appear at the start|processing instructions are not allowed before root|inappropriately located doctype|unclosed tag|document must contain a root element)/;

export function createXmlTokenizer(startOffset: number, encoding?: Encoding): XmlTokenizer {
  let enc: Encoding | null = encoding ?? null;
  let head: Buffer = Buffer.alloc(0); // bytes kept until the encoding is known
  let byteBase = startOffset; // file offset of stream position 0 (after any BOM)
  let utf8Held: Buffer = Buffer.alloc(0); // an incomplete UTF-8 character at the end of the last chunk
  let utf16: ReturnType<typeof iconv.getDecoder> | null = null;
  let bytesIn = 0;

  // Decoded text kept from stream position `textBase` (the `<` of markup not yet closed, or where the parser stands).
  let text = '';
  let textBase = 0;
  // UTF-8 byte cursor: stream position `curPos` is at file offset `curByte`; corrections for invalid bytes after it.
  let curPos = 0;
  let curByte = 0;
  let corrections: { at: number; delta: number }[] = [];

  let out: XmlToken[] = [];
  let parser!: SaxesParser;
  let parserBase = 0; // stream position of the fresh parser's position 0
  let fed = 0; // stream position up to which text was written to a parser
  let tagStart = -1; // stream position of the `<` of an open tag saxes is inside, or -1
  let broken: BrokenTag | null = null; // a broken tag whose end is not seen yet

  const byteAt = (pos: number): number => {
    if (enc !== Encodings.Utf8) return byteBase + 2 * pos;
    if (pos >= curPos) {
      curByte += Buffer.byteLength(text.slice(curPos - textBase, pos - textBase));
      while (corrections.length > 0 && (corrections[0] as { at: number }).at < pos) curByte += (corrections.shift() as { delta: number }).delta;
      curPos = pos;
      return byteBase + curByte;
    }
    const back = Buffer.byteLength(text.slice(pos - textBase, curPos - textBase));
    return byteBase + curByte - back;
  };

  const freshParser = (at: number): void => {
    parser = new SaxesParser({ fragment: true, position: true });
    parserBase = at;
    tagStart = -1;
    const pos = (): number => parserBase + parser.position;
    parser.on('error', (err) => {
      const message = err.message.replace(/^\d+:\d+: /, '');
      if (STRUCTURE_ONLY.test(message)) {
        const unmatched = /^unmatched closing tag: (.*)\.$/.exec(message);
        // A fresh parser never saw the start of an element closed now (after a broken tag, or from a checkpoint).
        if (unmatched !== null) out.push({ kind: 'end', name: local(unmatched[1] as string), offset: byteAt(lastLt(pos())), end: byteAt(pos()) });
        return;
      }
      const at = pos();
      if (message === 'disallowed character.' && text.charCodeAt(at - 1 - textBase) !== LT) return; // a control character, not markup
      const start = tagStart >= 0 ? tagStart : lastLt(at);
      throw new BrokenTag(start, message.replace(/\.$/, ''));
    });
    // The name ends at the character just read; the `<` stands right before the name.
    parser.on('opentagstart', () => { tagStart = lastLt(pos() - 1); });
    parser.on('opentag', (tag: SaxesTagPlain) => {
      const attrs: Record<string, string> = Object.create(null) as Record<string, string>;
      for (const [name, value] of Object.entries(tag.attributes)) {
        if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
        attrs[local(name)] = value as string;
      }
      out.push({ kind: 'start', name: local(tag.name), attrs, selfClosing: tag.isSelfClosing, offset: byteAt(tagStart), end: byteAt(pos()) });
      tagStart = -1;
    });
    parser.on('closetag', (tag: SaxesTagPlain) => {
      if (tag.isSelfClosing) return;
      const end = pos();
      out.push({ kind: 'end', name: local(tag.name), offset: byteAt(lastLt(end)), end: byteAt(end) });
    });
    // Text is handed over when the markup after it starts: it ends at that markup's `<`.
    parser.on('text', (t) => { const end = byteAt(lastLt(pos())); out.push({ kind: 'text', text: t, offset: end, end }); });
    parser.on('cdata', (t) => { const end = byteAt(pos()); out.push({ kind: 'text', text: t, offset: end, end }); });
  };

  /** Stream position of the last `<` before `pos`. */
  const lastLt = (pos: number): number => {
    const i = text.lastIndexOf('<', pos - 1 - textBase);
    return i < 0 ? pos : textBase + i;
  };

  const bad = (start: number, stop: number, reason: string): void => {
    out.push({ kind: 'bad', reason, excerpt: text.slice(start - textBase, Math.min(stop, start + 512) - textBase), offset: byteAt(start), end: byteAt(stop) });
  };

  const run = (final: boolean): void => {
    const end = textBase + text.length;
    for (;;) {
      if (broken !== null) {
        const stop = tagEnd(text, broken.start - textBase + 1);
        if (stop < 0) {
          if (!final && end - broken.start <= MAX_MARKUP_UNITS) return;
          bad(broken.start, end, final ? 'the file ends inside markup that was never closed with `>`' : `markup longer than ${MAX_MARKUP_UNITS} characters without a closing \`>\``);
          broken = null;
          fed = end;
          freshParser(end);
          return;
        }
        const closed = text.charCodeAt(stop - 1) === GT;
        bad(broken.start, textBase + stop, closed ? broken.reason : 'a tag is cut by the next `<` before its closing `>`');
        broken = null;
        fed = textBase + stop;
        freshParser(fed);
      }
      if (fed === end) return;
      try {
        const from = fed;
        fed = end;
        parser.write(text.slice(from - textBase));
        return;
      } catch (e) {
        if (!(e instanceof BrokenTag)) throw e;
        broken = e;
      }
    }
  };

  /** Drops decoded text nothing will look at again: before an open tag's `<`, else before where the parser stands. */
  const trim = (): void => {
    let keep = broken !== null ? broken.start : tagStart >= 0 ? tagStart : fed;
    const lt = text.lastIndexOf('<');
    if (lt >= 0 && textBase + lt < keep) keep = textBase + lt;
    if (keep - textBase < 65536) return;
    if (enc === Encodings.Utf8 && curPos < keep) byteAt(keep);
    text = text.slice(keep - textBase);
    textBase = keep;
  };

  const decode = (chunk: Buffer, final: boolean): void => {
    if (enc === null) {
      head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
      const d = detectEncoding(head, final);
      if (d === null) return;
      enc = d.encoding;
      byteBase += d.bom;
      chunk = head.subarray(d.bom);
      head = Buffer.alloc(0);
    }
    if (enc === Encodings.Utf8) {
      let bytes = utf8Held.length === 0 ? chunk : Buffer.concat([utf8Held, chunk]);
      const held = final ? 0 : incompleteTail(bytes);
      utf8Held = bytes.subarray(bytes.length - held);
      bytes = bytes.subarray(0, bytes.length - held);
      const piece = decodeUtf8(bytes);
      const at = textBase + text.length;
      for (const c of piece.corrections) corrections.push({ at: at + c.at, delta: c.delta });
      text += piece.text;
    } else {
      utf16 ??= iconv.getDecoder(enc === Encodings.Utf16le ? 'utf-16le' : 'utf-16be', { stripBOM: false });
      bytesIn += chunk.length;
      text += utf16.write(chunk);
    }
  };

  freshParser(0);
  return {
    push(chunk) {
      out = [];
      decode(chunk, false);
      if (enc !== null) { run(false); trim(); }
      return out;
    },
    finish() {
      out = [];
      decode(Buffer.alloc(0), true);
      if (enc === null) return out;
      run(true);
      if (broken === null && tagStart >= 0) {
        bad(tagStart, textBase + text.length, 'the file ends inside markup that was never closed with `>`');
      } else if (broken === null) {
        // Markup other than a start tag left open (an end tag, a comment): saxes says "unexpected end".
        let cut = -1;
        parser.on('error', (err) => { if (/unexpected end/.test(err.message)) cut = lastLt(textBase + text.length); });
        parser.close();
        if (cut >= 0) bad(cut, textBase + text.length, 'the file ends inside markup that was never closed with `>`');
      }
      if (enc !== Encodings.Utf8 && bytesIn % 2 === 1) {
        out.push({ kind: 'bad', reason: 'the file ends with half a UTF-16 character', excerpt: '', offset: byteBase + bytesIn - 1, end: byteBase + bytesIn });
      }
      return out;
    },
  };
}

/** Index in `s` just past the `>` that closes a tag opened before `from`, skipping quoted values; -1 if not seen. */
function tagEnd(s: string, from: number): number {
  let quote = 0;
  for (let j = from; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (quote !== 0) { if (c === quote) quote = 0; continue; }
    if (c === QUOT || c === APOS) quote = c;
    else if (c === GT) return j + 1;
    else if (c === LT) return j; // a `<` inside a tag: the tag is broken; end it here so the next one is read
  }
  return -1;
}
