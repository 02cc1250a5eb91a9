// Turns XML tokens of an APDEX export into key-operation and measurement records (docs/apdex.md §2.2).
// Format 1.0.0.4 puts fields in attributes; other writers use child elements: both are read alike.
import type { ApdexKeyOperation, ApdexMeasurement, ApdexRecord } from '../../schemas/apdex-measurement.js';
import { boundedExcerpt } from '../../schemas/excerpt.js';
import type { FileContext, ParseOutput } from '../parser.js';
// Same identity scheme as PostgreSQL events (host, file_key, offset); it lives in pg/ for now, not pg-specific.
import { eventIdHasher } from '../pg/event-id.js';
import { dateTimeToIso, secondsToUs, startToIso, toBool, toInt, toNumber } from './values.js';
import type { XmlToken } from './xml-tokens.js';

interface Element {
  offset: number;
  end: number;
  /** Attributes first; a child element's text fills a field only when no attribute of that name was set. */
  fields: Record<string, string>;
}

export interface ExportReader {
  read(tokens: XmlToken[]): ParseOutput<ApdexRecord>;
  /** The file ended: report a KeyOperation left open (its complete measurements are still emitted). */
  finish(end: number): ParseOutput<ApdexRecord>;
  /** File offset after the last token read outside any KeyOperation: a fresh reader may start there. */
  readonly settled: number;
}

/**
 * Records of a KeyOperation are emitted at its end tag: in the child-element shape its name and T may
 * follow the measurements. The export writes at most `MeasurementsCountInExportPackage` (1000 by default)
 * measurements per file, which bounds what is held. Elements outside KeyOperation (the `Performance`
 * root) are ignored, so a reader started at a checkpoint between two KeyOperations reads the same.
 */
export function createExportReader(ctx: FileContext): ExportReader {
  const idOf = eventIdHasher(ctx.host, ctx.file_key);
  let settled = ctx.offset;
  let ko: (Element & { measurements: Element[] }) | null = null;
  let m: Element | null = null;
  let leaf: { name: string; text: string; depth: number } | null = null;
  let depth = 0; // elements open inside the current measurement or KeyOperation, below the leaf

  const error = (out: ParseOutput<ApdexRecord>, offset: number, end: number, kind: string, reason: string, excerpt: string, canContinue = true): void => {
    out.errors.push({ host: ctx.host, source: ctx.source, file: ctx.file, file_key: ctx.file_key, offset, length: end - offset, kind, reason, excerpt: boundedExcerpt(excerpt), can_continue: canContinue });
  };

  const emit = (out: ParseOutput<ApdexRecord>, k: Element & { measurements: Element[] }): void => {
    const f = k.fields;
    const operation = f.nameFull || f.name || '';
    if (operation === '') {
      error(out, k.offset, k.end, 'apdex_no_operation', 'a KeyOperation has neither `nameFull` nor `name`, so its measurements cannot be attributed', JSON.stringify(f));
      return;
    }
    const target = toNumber(f.targetValue);
    const settings = {
      operation, operation_name: f.name ?? '', operation_uid: f.uid ?? '',
      target_s: target !== null && target > 0 ? target : null,
      priority: toInt(f.priority), min_level: toNumber(f.minimalApdexValue), long: toBool(f.long),
    };
    const measurements: ApdexMeasurement[] = [];
    for (const me of k.measurements) {
      const v = me.fields;
      const duration = secondsToUs(v.value);
      const start = startToIso(v.tUtc ?? v.tUTC);
      if (duration === null || start === null) {
        const what = duration === null ? `run time \`value\` "${v.value ?? ''}" is not a non-negative number of seconds` : `start \`tUtc\` "${v.tUtc ?? v.tUTC ?? ''}" is neither ms since 0001-01-01 nor a dateTime`;
        error(out, me.offset, me.end, 'apdex_bad_measurement', `a measurement of ${operation}: ${what}; it is skipped`, JSON.stringify(v));
        continue;
      }
      measurements.push({
        kind: 'measurement', origin: { host: ctx.host, source: ctx.source, file: ctx.file, file_key: ctx.file_key, offset: me.offset },
        event_id: idOf(me.offset), ...settings, comment: v.comment ?? f.comment ?? '', ts_start: start, duration_us: duration,
        weight: toNumber(v.weight) ?? 1, user: v.userName ?? '', session_number: toInt(v.sessionNumber),
        saved_at: dateTimeToIso(v.tSaveUTC), failed: toBool(v.runningError ?? f.runningError),
      });
    }
    const settingsRecord: ApdexKeyOperation = {
      kind: 'key_operation', origin: { host: ctx.host, source: ctx.source, file: ctx.file, file_key: ctx.file_key, offset: k.offset },
      ...settings, current_apdex: toNumber(f.currentApdexValue), measurements: measurements.length,
    };
    out.events.push(settingsRecord, ...measurements);
  };

  const read = (tokens: XmlToken[]): ParseOutput<ApdexRecord> => {
    const out: ParseOutput<ApdexRecord> = { events: [], errors: [] };
    for (const t of tokens) {
      if (t.kind === 'bad') {
        error(out, t.offset, t.end, 'malformed_xml', `malformed XML: ${t.reason}`, t.excerpt);
      } else if (leaf !== null) {
        if (t.kind === 'text' && depth === leaf.depth) leaf.text += t.text;
        else if (t.kind === 'start' && !t.selfClosing) depth++;
        else if (t.kind === 'end' && depth > leaf.depth) depth--;
        else if (t.kind === 'end') {
          const target = m ?? ko;
          if (target !== null && !(leaf.name in target.fields)) target.fields[leaf.name] = leaf.text.trim();
          leaf = null;
        }
      } else if (t.kind === 'start' && t.name === 'KeyOperation') {
        if (ko !== null) error(out, ko.offset, t.offset, 'apdex_unclosed_key_operation', 'a KeyOperation starts before the previous one ended; the previous one is dropped', JSON.stringify(ko.fields));
        ko = { offset: t.offset, end: t.end, fields: { ...t.attrs }, measurements: [] };
        m = null;
        if (t.selfClosing) { emit(out, ko); ko = null; }
      } else if (ko !== null && t.kind === 'start' && t.name === 'measurement' && m === null) {
        m = { offset: t.offset, end: t.end, fields: { ...t.attrs } };
        if (t.selfClosing) { ko.measurements.push(m); m = null; }
      } else if (ko !== null && t.kind === 'start') {
        if (!t.selfClosing) { leaf = { name: t.name, text: '', depth }; }
      } else if (ko !== null && t.kind === 'end' && t.name === 'measurement' && m !== null) {
        m.end = t.end;
        ko.measurements.push(m);
        m = null;
      } else if (ko !== null && t.kind === 'end' && t.name === 'KeyOperation') {
        ko.end = t.end;
        emit(out, ko);
        ko = null;
        m = null;
      }
      if (ko === null) settled = t.end;
    }
    return out;
  };

  return {
    read,
    finish(end) {
      const out: ParseOutput<ApdexRecord> = { events: [], errors: [] };
      if (ko !== null) {
        const open = ko;
        const last = open.measurements.at(-1)?.end ?? open.end;
        emit(out, open);
        error(out, last, end, 'apdex_truncated', `the file ends inside KeyOperation ${open.fields.nameFull ?? open.fields.name ?? ''}; the complete measurements before the cut were kept`, '', false);
        ko = null;
      }
      settled = end;
      return out;
    },
    get settled() {
      return settled;
    },
  };
}
