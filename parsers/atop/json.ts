// Parser for atop -J output (atop 2.8+): one JSON object per sample per line, read into the same AtopRecord
// shape as -P (one record per label instance) with field names mapped by json-fields.ts. Pure, incremental.
//
// -J has no RESET/SEP: the first sample a file holds is the since-boot one (docs/atop-format.md §8), so only a
// parser started at offset 0 marks its first line since_boot; a later atop restart in the same file cannot
// be seen. -J prints no local date/time, so `date`/`time` are the UTC ones. All records of a line share
// its bytes, so origin.offset is the line start plus the record's index: unique and stable, not the exact
// byte where the object sits.
import type { AtopFieldValue, AtopRecord } from '../../schemas/atop-record.js';
import { boundedExcerpt } from '../../schemas/excerpt.js';
import type { IngestError } from '../../schemas/ingest-error.js';
import type { FileContext, IncrementalParser, ParseOutput } from '../parser.js';
import { JSON_RENAMES, NUMERIC_STRINGS } from './json-fields.js';
import { type Line, LineFramer } from './line-framing.js';
import { validEpoch } from './line-record.js';

/** A -J line holds every task of the host: allow far more than a -P line. */
const MAX_JSON_LINE = 256 << 20;
const HEADER_KEYS = new Set(['host', 'timestamp', 'elapsed']);
const TASK_LABELS = new Set(['PRC', 'PRM', 'PRD', 'PRN', 'PRE']);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const unwrap = (s: string): string => (s.length >= 2 && s.startsWith('(') && s.endsWith(')') ? s.slice(1, -1) : s);

function value(key: string, v: unknown): AtopFieldValue {
  if (typeof v === 'number') return key === 'isproc' ? (v === 1 ? 'y' : 'n') : Number.isFinite(v) ? v : String(v);
  if (typeof v === 'string') {
    if (NUMERIC_STRINGS.has(key) && /^-?\d+(?:\.\d+)?$/.test(v)) return Number(v);
    return key === 'name' || key === 'cmdline' || key === 'cgroup' ? unwrap(v) : v;
  }
  if (typeof v === 'boolean') return v ? 'y' : 'n';
  if (Array.isArray(v) && v.every((x) => typeof x === 'number')) return v as number[];
  return JSON.stringify(v) ?? '';
}

function fieldsOf(key: string, instance: Json, sample: Json, index: number): Record<string, AtopFieldValue> {
  const renames = JSON_RENAMES[key] ?? {};
  const fields: Record<string, AtopFieldValue> = key === 'NET_GENERAL' ? { name: 'upper' } : {};
  for (const [k, v] of Object.entries(instance)) {
    // A `__proto__` key would replace the object's prototype instead of adding a field.
    if (k !== '__proto__') fields[renames[k] ?? k] = value(k, v);
  }
  if (typeof instance.avque === 'number' && typeof instance.io_ms === 'number') {
    // -P prints the queue depth while busy (weighted ms / io_ms); -J the raw weighted ms.
    fields.avg_queue = instance.io_ms > 0 ? instance.avque / instance.io_ms : 0;
    fields.weighted_ms = instance.avque;
    delete fields.avque;
  }
  if (key === 'PRC' && isObject(sample.CPU) && typeof sample.CPU.hertz === 'number') fields.hertz = sample.CPU.hertz;
  // Before 2.11 only PRG names the task and says whether it is a process; the arrays list the same tasks in order.
  const prg = Array.isArray(sample.PRG) ? sample.PRG[index] : undefined;
  if (TASK_LABELS.has(key) && isObject(prg) && prg.pid === instance.pid) {
    if (fields.name === undefined && (typeof prg.name === 'string' || typeof prg.cmd === 'string')) fields.name = value('name', prg.name ?? prg.cmd);
    if (fields.is_process === undefined && typeof prg.isproc === 'number') fields.is_process = value('isproc', prg.isproc);
  }
  return fields;
}

export function createAtopJsonParser(ctx: FileContext): IncrementalParser<AtopRecord> {
  const framer = new LineFramer(ctx.offset, MAX_JSON_LINE);
  let settled = ctx.offset;
  let sample = 0;

  const error = (line: Line, kind: string, reason: string): IngestError => ({
    host: ctx.host, source: ctx.source, file: ctx.file, file_key: ctx.file_key, offset: line.start,
    length: line.next - line.start, kind, reason: `${ctx.file} at offset ${line.start}: ${reason}; the line was skipped`,
    excerpt: boundedExcerpt(line.bytes.toString('utf8', 0, 600)), can_continue: true,
  });

  const readSample = (line: Line, out: ParseOutput<AtopRecord>): void => {
    if (line.oversized) return void out.errors.push(error(line, 'oversized_line', `a line of ${line.next - line.start} bytes is longer than any atop -J sample`));
    const text = line.bytes.toString('utf8');
    if (text.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      return void out.errors.push(error(line, 'bad_json', `the line is not valid JSON (${(e as Error).message})`));
    }
    if (!isObject(parsed) || typeof parsed.host !== 'string' || parsed.host === '' || typeof parsed.timestamp !== 'number' || !validEpoch(parsed.timestamp)
      || typeof parsed.elapsed !== 'number' || !Number.isSafeInteger(parsed.elapsed) || parsed.elapsed < 0) {
      return void out.errors.push(error(line, 'bad_sample', 'expected an atop -J sample: an object with "host", an epoch "timestamp" and an "elapsed" in whole seconds'));
    }
    const iso = new Date(parsed.timestamp * 1000).toISOString();
    const base = {
      host: parsed.host, epoch: parsed.timestamp, ts: iso, date: iso.slice(0, 10).replaceAll('-', '/'), time: iso.slice(11, 19),
      interval: parsed.elapsed, since_boot: sample === 0 && ctx.offset === 0, sample, layout: 'json',
    };
    let index = 0;
    for (const [key, v] of Object.entries(parsed)) {
      if (HEADER_KEYS.has(key)) continue;
      const label = key === 'NET_GENERAL' ? 'NET' : key;
      const instances = Array.isArray(v) ? v : [v];
      if (!/^[A-Za-z]{3}$/.test(label) || !instances.every(isObject)) {
        out.errors.push(error(line, 'unknown_label', `key "${key}" is not an atop label holding objects; it was left out of the sample`));
        continue;
      }
      instances.forEach((instance, i) => {
        out.events.push({
          ...base, label, fields: fieldsOf(key, instance, parsed as Json, i),
          origin: { host: ctx.host, source: ctx.source, file: ctx.file, file_key: ctx.file_key, offset: line.start + index },
        });
        index += 1;
      });
    }
    sample += 1;
  };

  return {
    push(chunk: Buffer): ParseOutput<AtopRecord> {
      const out: ParseOutput<AtopRecord> = { events: [], errors: [] };
      for (const line of framer.push(chunk)) {
        readSample(line, out);
        settled = line.next;
      }
      return out;
    },
    finish(): ParseOutput<AtopRecord> {
      const out: ParseOutput<AtopRecord> = { events: [], errors: [] };
      const last = framer.finish();
      if (last !== null) readSample(last, out);
      settled = framer.position;
      return out;
    },
    get settled(): number {
      return settled;
    },
  };
}
