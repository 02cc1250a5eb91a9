// Reads one line of atop parseable output: a RESET/SEP marker, a blank line, or a data line whose 6-token
// header (label host epoch date time interval, docs/atop-format.md §3) is followed by the label's fields.
import type { AtopFieldValue } from '../../schemas/atop-record.js';
import { nameFields } from './field-values.js';
import { LABELS } from './labels/index.js';

const HEADER = /^(\S+) (\S+) (\d+) (\d{4}\/\d\d\/\d\d) (\d\d:\d\d:\d\d) (\d+)(?: (.*))?$/s;

export interface DataLine {
  kind: 'data';
  label: string;
  host: string;
  epoch: number;
  date: string;
  time: string;
  interval: number;
  layout: string;
  fields: Record<string, AtopFieldValue>;
}

export interface BadLine {
  kind: 'bad';
  /** IngestError kind: `garbage_line`, `unknown_label` or `bad_fields`. */
  error: string;
  reason: string;
}

export type LineRecord = { kind: 'reset' } | { kind: 'sep' } | { kind: 'blank' } | DataLine | BadLine;

export function readLine(text: string): LineRecord {
  if (text === 'SEP') return { kind: 'sep' };
  if (text === 'RESET') return { kind: 'reset' };
  if (text.trim() === '') return { kind: 'blank' };
  const header = HEADER.exec(text);
  if (header === null) {
    return {
      kind: 'bad',
      error: 'garbage_line',
      reason: 'the line is neither RESET/SEP nor "LABEL host epoch YYYY/MM/DD HH:MM:SS interval …" as atop -P prints',
    };
  }
  const [, label = '', host = '', epoch = '', date = '', time = '', interval = '', rest = ''] = header;
  if (!validEpoch(Number(epoch))) {
    return { kind: 'bad', error: 'garbage_line', reason: `epoch ${epoch} is not a time atop can have written` };
  }
  const spec = LABELS.get(label);
  if (spec === undefined) {
    return { kind: 'bad', error: 'unknown_label', reason: `label "${label}" is not one atop 2.4–2.13 prints (labels are case-sensitive)` };
  }
  const tokens = spec.tokenize(rest);
  if (typeof tokens === 'string') return { kind: 'bad', error: 'bad_fields', reason: `${label} line: ${tokens}` };
  const named = nameFields(label, spec.table(tokens), tokens);
  if (typeof named === 'string') return { kind: 'bad', error: 'bad_fields', reason: named };
  return {
    kind: 'data', label, host, epoch: Number(epoch), date, time, interval: Number(interval),
    layout: named.layout.versions, fields: named.fields,
  };
}

/** Seconds since 1970 that a JS Date can hold (±8.64e12 s); anything past that is corruption, not a sample. */
export function validEpoch(epoch: number): boolean {
  return Number.isSafeInteger(epoch) && Math.abs(epoch) <= 8.64e12;
}
