// Command-line flags shared by the commands, parsed with node:util parseArgs; a bad flag is a
// ConfigError with the usage line, never a stack trace.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError } from '../../ingest/errors/errors.js';

export type Options = NonNullable<ParseArgsConfig['options']>;

export const STORE_OPTIONS = {
  data: { type: 'string' },
  clickhouse: { type: 'string' },
} as const satisfies Options;

export function parseFlags<O extends Options>(argv: string[], options: O, usage: string) {
  try {
    return parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new ConfigError(`${(error as Error).message.replace(/\. To specify a positional argument.*$/, '')}\nusage: ${usage}`);
  }
}
