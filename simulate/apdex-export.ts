// Writes SSL performance-evaluation export XML (docs/apdex.md §2.2) from a list of key operations, in the
// XDTO attribute shape or the child-element shape, for tests and demos. Written from the doc, not copied.

export interface SimMeasurement {
  /** Run time, seconds. */
  value: number;
  /** Start, Unix ms (written as ms since 0001-01-01 in 1.0.0.4, as a dateTime in 1.0.0.0). */
  startMs: number;
  weight?: number;
  userName?: string;
  sessionNumber?: number;
  runningError?: boolean;
  /** 1.0.0.0 only: the comment sits on the measurement. */
  comment?: string;
}

export interface SimKeyOperation {
  uid: string;
  /** Description (human name). */
  name: string;
  /** Technical name; 1.0.0.0 has none. */
  nameFull: string;
  comment?: string;
  priority?: number;
  /** T, seconds. */
  targetValue?: number;
  long?: boolean;
  /** 1.0.0.0 only. */
  minimalApdexValue?: number;
  measurements: SimMeasurement[];
}

export const ExportShapes = { Attributes: 'attributes', Elements: 'elements' } as const;
export type ExportShape = (typeof ExportShapes)[keyof typeof ExportShapes];

const NS_1004 = 'www.v8.1c.ru/ssl/performace-assessment/apdexExport/1.0.0.4';
const NS_1000 = 'www.v8.1c.ru/ssl/performace-assessment/apdexExport';
const MS_0001_TO_1970 = 62_135_596_800_000;

const escape = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
/** XDTO dateTime has no zone designator; the fields are UTC by name. */
const dateTime = (ms: number): string => new Date(ms).toISOString().slice(0, 19);

type Fields = [string, string | number | boolean | undefined][];

function element(tag: string, fields: Fields, shape: ExportShape, indent: string, children: string[] = []): string {
  const present = fields.filter((f): f is [string, string | number | boolean] => f[1] !== undefined);
  if (shape === ExportShapes.Attributes) {
    const attrs = present.map(([k, v]) => ` ${k}="${escape(String(v))}"`).join('');
    return children.length === 0 ? `${indent}<${tag}${attrs}/>` : `${indent}<${tag}${attrs}>\n${children.join('\n')}\n${indent}</${tag}>`;
  }
  const inner = present.map(([k, v]) => `${indent}  <${k}>${escape(String(v))}</${k}>`);
  return `${indent}<${tag}>\n${[...inner, ...children].join('\n')}\n${indent}</${tag}>`;
}

export function writeApdexExport(ops: SimKeyOperation[], o: { shape: ExportShape; version?: '1.0.0.4' | '1.0.0.0'; periodMs?: number }): string {
  const old = o.version === '1.0.0.0';
  const body = ops.map((k) => {
    const ms = k.measurements.map((m) => element('measurement', [
      ['value', m.value],
      ...(old ? [] : [['weight', m.weight ?? 1]] as Fields),
      ['tUtc', old ? dateTime(m.startMs) : m.startMs + MS_0001_TO_1970],
      ['userName', m.userName],
      ['tSaveUTC', dateTime(m.startMs + Math.round(m.value * 1000))],
      ['sessionNumber', m.sessionNumber],
      ...(old ? [['comment', m.comment]] as Fields : [['runningError', m.runningError ?? false]] as Fields),
    ], o.shape, '    '));
    return element('KeyOperation', old
      ? [['uid', k.uid], ['name', k.name], ['priority', k.priority], ['targetValue', k.targetValue], ['minimalApdexValue', k.minimalApdexValue]]
      : [['uid', k.uid], ['name', k.name], ['nameFull', k.nameFull], ['comment', k.comment ?? ''], ['priority', k.priority], ['targetValue', k.targetValue], ['long', k.long ?? false]],
    o.shape, '  ', ms);
  });
  const ns = old ? NS_1000 : NS_1004;
  const period = dateTime(o.periodMs ?? Date.UTC(2026, 10, 30, 12, 0, 0));
  return `<?xml version="1.0" encoding="UTF-8"?>\n<prf:Performance xmlns="${ns}" xmlns:prf="${ns}" xmlns:xs="http://www.w3.org/2001/XMLSchema" version="${old ? '1.0.0.0' : '1.0.0.4'}" period="${period}">\n${body.join('\n')}\n</prf:Performance>\n`;
}

/** Bytes as 1C writes them (UTF-8 with BOM), or UTF-16LE with BOM to exercise the reader. */
export function encodeExport(xml: string, encoding: 'utf8' | 'utf16le' = 'utf8'): Buffer {
  return encoding === 'utf8'
    ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(xml, 'utf8')])
    : Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')]);
}
