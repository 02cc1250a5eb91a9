// Windows performance-counter logs as CSV (`relog -f csv`, `typeperf -f CSV`): a header line names the counters, then
// one line per sample, its time first, e.g.
//   "(PDH-CSV 4.0) (Russian Standard Time)(-180)","\\SRV1\Processor(_Total)\% Processor Time"
//   "12/01/2026 10:00:00.123","12.5"
// The header's last parenthesis is the bias in minutes (UTC = local + bias); a blank cell (" ") is a counter that
// was not there at that sample. Incremental and pure (parsers/parser.ts): a line is read once its line feed came.
import type { IncrementalParser, FileContext, ParseOutput } from '../../../parsers/parser.js';
import { boundedExcerpt, type IngestError } from '../../../schemas/ingest-error.js';
import type { PerfmonSample } from './perfmon-record.js';

export interface PerfmonHeader {
  counters: string[];
  biasMinutes: number;
}

/** The header line's counters and bias, or null when the line is not a PDH-CSV header. */
export function parseHeader(line: string): PerfmonHeader | null {
  const cells = splitCsv(line);
  const bias = /\((-?\d+)\)\s*$/.exec(cells?.[0] ?? '');
  if (cells === null || bias === null || !cells[0]!.startsWith('(PDH-CSV')) return null;
  return { counters: cells.slice(1), biasMinutes: Number(bias[1]) };
}

/** `header`: given when reading starts past the header line (the source reads it from the file). */
export function createPerfmonParser(ctx: FileContext, header: PerfmonHeader | null): IncrementalParser<PerfmonSample> {
  let held = Buffer.alloc(0);
  let at = ctx.offset; // file offset of held[0]
  let known = header;
  const readLine = (bytes: Buffer, offset: number, out: ParseOutput<PerfmonSample>): void => {
    const line = bytes.toString('utf8').replace(/\r?\n$/, '');
    if (line === '') return;
    const bad = (reason: string): void => {
      out.errors.push({
        host: ctx.host, source: ctx.source, file: ctx.file, file_key: ctx.file_key, offset, length: bytes.length,
        kind: 'bad_line', reason: `${ctx.file} at offset ${offset}: ${reason}`, excerpt: boundedExcerpt(line), can_continue: true,
      });
    };
    if (known === null) {
      known = parseHeader(line);
      if (known === null) bad('expected the PDH-CSV header line ("(PDH-CSV 4.0) (zone)(bias)","\\\\host\\counter",…)');
      return;
    }
    const cells = splitCsv(line);
    const ts = cells === null ? null : utcTime(cells[0]!, known.biasMinutes);
    if (cells === null || ts === null || cells.length !== known.counters.length + 1) {
      bad(`expected a quoted time "MM/DD/YYYY hh:mm:ss.fff" and ${known.counters.length} quoted values`);
      return;
    }
    const values = cells.slice(1).map((c) => (c.trim() === '' ? null : Number(c)));
    if (values.some((v) => v !== null && !Number.isFinite(v))) { bad('a value is not a number'); return; }
    const origin = { host: ctx.host, source: ctx.source, file: ctx.file, file_key: ctx.file_key, offset };
    known.counters.forEach((counter, i) => out.events.push({ ts, counter, value: values[i] ?? null, origin }));
  };
  return {
    get settled() { return at; },
    push(chunk) {
      const out: ParseOutput<PerfmonSample> = { events: [], errors: [] };
      held = held.length === 0 ? Buffer.from(chunk) : Buffer.concat([held, chunk]);
      for (let nl = held.indexOf(10); nl >= 0; nl = held.indexOf(10)) {
        readLine(held.subarray(0, nl + 1), at, out);
        at += nl + 1;
        held = held.subarray(nl + 1);
      }
      return out;
    },
    finish() {
      const out: ParseOutput<PerfmonSample> = { events: [], errors: [] };
      if (held.length > 0) readLine(held, at, out);
      at += held.length;
      held = Buffer.alloc(0);
      return out;
    },
  };
}

/** A line of quoted cells (`""` a quote inside one); null when the quoting is broken. */
function splitCsv(line: string): string[] | null {
  const cells: string[] = [];
  const re = /"((?:[^"]|"")*)"(,|$)/gy;
  for (let m = re.exec(line); m !== null; m = re.exec(line)) {
    cells.push(m[1]!.replace(/""/g, '"'));
    if (m[2] === '') return re.lastIndex === line.length ? cells : null;
  }
  return null;
}

/** `MM/DD/YYYY hh:mm:ss.fff` local time and the bias → `YYYY-MM-DD hh:mm:ss.fff` UTC; null when it is not one. */
function utcTime(text: string, biasMinutes: number): string | null {
  const m = /^(\d\d)\/(\d\d)\/(\d{4}) (\d\d):(\d\d):(\d\d)\.(\d{3})$/.exec(text);
  if (m === null) return null;
  const [, mo, d, y, h, mi, s, ms] = m.map(Number) as number[];
  const utc = Date.UTC(y!, mo! - 1, d!, h!, mi!, s!, ms!) + biasMinutes * 60_000;
  return new Date(utc).toISOString().slice(0, 23).replace('T', ' ');
}
