// The inside of one `<…>` tag as a token, and the five XML entities plus character references: part of the hand-written
// APDEX XML tokenizer kept for the comparison in bench/library-candidates.ts (bench/hand-written-xml-tokens.ts).

export type TagToken =
  | { kind: 'start'; name: string; attrs: Record<string, string>; selfClosing: boolean }
  | { kind: 'end'; name: string }
  | { kind: 'bad'; reason: string; excerpt: string };

const NAME = /^[^\s<>"'=/]+$/;
const ATTR = /\s+([^\s=<>"'/]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Local part of a qualified name: the export's namespace is fixed, so `prf:KeyOperation` is `KeyOperation`. */
const local = (name: string): string => name.slice(name.indexOf(':') + 1);

/** `body` is what stands between `<` and `>`. */
export function parseTag(body: string): TagToken {
  if (body.startsWith('/')) {
    const name = body.slice(1).trim();
    return NAME.test(name) ? { kind: 'end', name: local(name) } : bad('an end tag without a valid element name', body);
  }
  const selfClosing = body.endsWith('/');
  const inner = selfClosing ? body.slice(0, -1) : body;
  const m = /^[^\s<>"'=/]+/.exec(inner);
  if (m === null) return bad('a `<` that does not start an element name', body);
  const attrs: Record<string, string> = Object.create(null) as Record<string, string>;
  ATTR.lastIndex = m[0].length;
  let pos = ATTR.lastIndex;
  for (let a = ATTR.exec(inner); a !== null; a = ATTR.exec(inner)) {
    pos = ATTR.lastIndex;
    const name = a[1] as string;
    if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
    // Attribute-value normalisation (XML 1.0 §3.3.3): literal line breaks and tabs read as spaces.
    attrs[local(name)] = decodeEntities((a[2] ?? a[3] ?? '').replace(/[\t\n\r]/g, ' '));
  }
  if (inner.slice(pos).trim() !== '') return bad('an attribute that is not `name="value"`', body);
  return { kind: 'start', name: local(m[0]), attrs, selfClosing };
}

/** Unknown named entities are kept as written: the export declares none, and dropping text would hide it. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#\d{1,7}|[a-zA-Z]+);/g, (whole, ref: string) => {
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[ref] ?? whole;
  });
}

function bad(reason: string, body: string): TagToken {
  return { kind: 'bad', reason, excerpt: `<${body.slice(0, 510)}>` };
}
