// The atop `-P` parser: frames bytes into lines (line-framing.ts), reads each line (line-record.ts) and
// follows the RESET/SEP sample framing (docs/atop-format.md §2). Pure and incremental: no I/O, no clock.
//
// A sample is the run of lines up to a `SEP`; a sample opened by `RESET` holds since-boot values and every
// record of it carries `since_boot: true`. Records are emitted line by line, since the framing state is
// known before each line. `settled` moves only at sample ends (after `SEP`): a fresh parser started there
// re-reads whole samples and sees any RESET that opens the next one. `sample` is counted from where this
// parser started, so it is the number within the file only for a parser started at offset 0.
import type { AtopRecord } from '../../schemas/atop-record.js';
import { boundedExcerpt } from '../../schemas/excerpt.js';
import type { IngestError } from '../../schemas/ingest-error.js';
import type { FileContext, IncrementalParser, ParseOutput } from '../parser.js';
import { type Line, LineFramer, MAX_LINE } from './line-framing.js';
import { readLine } from './line-record.js';

export function createAtopParser(ctx: FileContext): IncrementalParser<AtopRecord> {
  const framer = new LineFramer(ctx.offset);
  let settled = ctx.offset;
  let sample = 0;
  let sinceBoot = false;
  let sampleHasLines = false;

  const error = (line: Line, kind: string, reason: string, text: string): IngestError => ({
    host: ctx.host, source: ctx.source, file: ctx.file, file_key: ctx.file_key,
    offset: line.start, length: line.next - line.start, kind,
    reason: `${ctx.file} at offset ${line.start}: ${reason}; the line was skipped`,
    excerpt: boundedExcerpt(text), can_continue: true,
  });

  const closeSample = (): void => {
    sample += 1;
    sinceBoot = false;
    sampleHasLines = false;
  };

  const handle = (line: Line, text: string, out: ParseOutput<AtopRecord>): void => {
    if (line.oversized) {
      out.errors.push(error(line, 'oversized_line',
        `a line of ${line.next - line.start} bytes is longer than the ${MAX_LINE} bytes any atop -P line takes (a binary raw log read as text?)`, text));
      return;
    }
    const read = readLine(text);
    switch (read.kind) {
      case 'blank':
        break;
      case 'sep':
        closeSample();
        settled = line.next;
        break;
      case 'reset':
        // atop always prints SEP before RESET; if it is missing, the RESET still opens a new sample.
        if (sampleHasLines) closeSample();
        sinceBoot = true;
        break;
      case 'bad':
        out.errors.push(error(line, read.error, read.reason, text));
        break;
      case 'data':
        sampleHasLines = true;
        out.events.push({
          label: read.label, host: read.host, epoch: read.epoch, ts: new Date(read.epoch * 1000).toISOString(),
          date: read.date, time: read.time, interval: read.interval, since_boot: sinceBoot, sample,
          layout: read.layout, fields: read.fields,
          origin: { host: ctx.host, source: ctx.source, file: ctx.file, file_key: ctx.file_key, offset: line.start },
        });
    }
  };

  // atop 2.4/2.5 could print PRE's uninitialised GPU-state byte as a line feed, cutting the line in two
  // with the second half starting with a space (docs/atop-format.md §4). A PRE line ending in a space is held
  // until the next line shows whether it is such a continuation; the two are then read as one line.
  let held: { line: Line; text: string } | null = null;
  const read = (lines: Line[], out: ParseOutput<AtopRecord>): void => {
    for (const line of lines) {
      const text = line.bytes.toString('utf8');
      if (held !== null) {
        const first = held;
        held = null;
        if (text.startsWith(' ') && !line.oversized) {
          const joined = { ...line, start: first.line.start, bytes: Buffer.concat([first.line.bytes, Buffer.from('\n'), line.bytes]) };
          handle(joined, `${first.text}\n${text}`, out);
          continue;
        }
        handle(first.line, first.text, out);
      }
      if (text.startsWith('PRE ') && text.endsWith(' ') && !line.oversized) held = { line, text };
      else handle(line, text, out);
    }
  };

  return {
    push(chunk: Buffer): ParseOutput<AtopRecord> {
      const out: ParseOutput<AtopRecord> = { events: [], errors: [] };
      read(framer.push(chunk), out);
      return out;
    },
    finish(): ParseOutput<AtopRecord> {
      const out: ParseOutput<AtopRecord> = { events: [], errors: [] };
      const last = framer.finish();
      if (last !== null) read([last], out);
      if (held !== null) handle(held.line, held.text, out);
      held = null;
      // A sample without its closing SEP is complete as far as it goes: atop was stopped, or the file
      // is a fragment; its records were emitted already.
      settled = Math.max(settled, framer.position);
      return out;
    },
    get settled(): number {
      return settled;
    },
  };
}
