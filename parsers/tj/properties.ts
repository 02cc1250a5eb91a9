// Property list of one TJ event (docs/tj-format.md §3): `name=value` pairs split at the first `=`, values
// unquoted (to the next comma) or quoted; repeated names keep every value in order.
import { readQuotedValue } from './quoted-value.js';

/**
 * Properties in file order as one flat list `[name0, value0, name1, value1, …]`: repeated names stay
 * where they were. A flat list instead of an object because keyed stores of ~20 names per event were
 * half of parse time (profiled on a 120 MB file); `propsObject` builds the object view when needed.
 */
export type TjProperties = string[];

/**
 * A quoted value that is not well-formed (docs/tj-format.md §3.2): indexes in the event text of its opening quote,
 * of the first quote that was followed by text, and of the quote that closed it (-1: read to the next comma).
 */
export type StrayQuoteHandler = (name: string, open: number, stray: number, close: number) => void;

/** Parses `text` from `pos` (just after the header) to its end. CRLF inside values becomes LF. */
export function parseProperties(text: string, pos: number, onStrayQuote?: StrayQuoteHandler): TjProperties {
  const props: TjProperties = [];
  const n = text.length;
  let p = pos;
  while (p < n) {
    if (text.charCodeAt(p) === 0x2c) { p++; continue; }
    const eq = text.indexOf('=', p);
    if (eq < 0) break; // a trailing fragment without `=`: nothing to keep (the framer kept it in the event)
    const name = text.slice(p, eq);
    let value: string;
    const c = text.charCodeAt(eq + 1);
    if (c === 0x27 || c === 0x22) {
      const q = readQuotedValue(text, eq + 1);
      value = q.value;
      p = q.next < 0 ? n : q.next;
      if (q.strayQuote >= 0) onStrayQuote?.(name, eq + 1, q.strayQuote, q.close);
      if (value.includes('\r\n')) value = value.replaceAll('\r\n', '\n');
    } else {
      const comma = text.indexOf(',', eq + 1);
      const stop = comma < 0 ? n : comma;
      value = text.slice(eq + 1, stop);
      p = stop;
    }
    props.push(name, value);
  }
  return props;
}

/** Property values by original name: a string, or an array when the name repeats. */
export type TjProps = Record<string, string | string[]>;

/** The object view of a property list (what `perfpipe parse tj` prints). */
export function propsObject(props: TjProperties): TjProps {
  const out: TjProps = {};
  for (let i = 0; i < props.length; i += 2) {
    const name = props[i] as string;
    const value = props[i + 1] as string;
    const prev = Object.hasOwn(out, name) ? out[name] : undefined;
    if (prev === undefined) Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
    else if (typeof prev === 'string') out[name] = [prev, value];
    else prev.push(value);
  }
  return out;
}

/** The first value of a property, or undefined. */
export function firstValue(props: TjProperties, name: string): string | undefined {
  for (let i = 0; i < props.length; i += 2) if (props[i] === name) return props[i + 1];
  return undefined;
}
