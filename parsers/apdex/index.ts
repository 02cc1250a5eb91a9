// Public entry of the APDEX export parser: bytes of one SSL performance-evaluation XML file in, records out.
import type { ApdexRecord } from '../../schemas/apdex-measurement.js';
import type { FileContext, IncrementalParser, ParseOutput } from '../parser.js';
import { createExportReader } from './export-reader.js';
import type { Encoding } from './text-encoding.js';
import { createXmlTokenizer } from './xml-tokens.js';

export interface ApdexParserOptions extends FileContext {
  /** Encoding of the file; detected from its first bytes (BOM or UTF-16 zero bytes) when absent. */
  encoding?: Encoding;
}

export function createApdexParser(options: ApdexParserOptions): IncrementalParser<ApdexRecord> {
  const ctx: FileContext = { host: options.host, source: options.source, file: options.file, file_key: options.file_key, offset: options.offset };
  const tokenizer = createXmlTokenizer(options.offset, options.encoding);
  const reader = createExportReader(ctx);
  let end = options.offset;
  return {
    push(chunk: Buffer): ParseOutput<ApdexRecord> {
      end += chunk.length;
      return reader.read(tokenizer.push(chunk));
    },
    finish(): ParseOutput<ApdexRecord> {
      const out = reader.read(tokenizer.finish());
      const last = reader.finish(end);
      return { events: [...out.events, ...last.events], errors: [...out.errors, ...last.errors] };
    },
    get settled() {
      return reader.settled;
    },
  };
}

export type { Encoding } from './text-encoding.js';
export { Encodings } from './text-encoding.js';
