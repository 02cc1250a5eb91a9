// `ingest` and `run` take a config file, flags, or both: flags override the file's keys.
import { ConfigError } from '../../ingest/errors/errors.js';
import { type Config, type ConfigInput, loadConfigInput, parseConfig } from '../../ingest/config/config.js';
import { parseFlags, STORE_OPTIONS } from './args.js';
import { apdexSourcesFromFlags, applyTimeFlags, PG_OPTIONS, type PgFlagValues, pgSourcesFromFlags } from './pg-flags.js';
import { ALERT_OPTIONS, applyAlertFlags } from './alert-flags.js';
import { ATOP_OPTIONS, type AtopFlagValues, atopSourcesFromFlags } from './atop-flags.js';

export const PIPELINE_OPTIONS = {
  ...STORE_OPTIONS,
  config: { type: 'string', short: 'c' },
  tj: { type: 'string', multiple: true },
  ...PG_OPTIONS,
  ...ATOP_OPTIONS,
  tz: { type: 'string' },
  hour: { type: 'string' },
  host: { type: 'string' },
  listen: { type: 'string' },
  'serve-listen': { type: 'string' },
  ...ALERT_OPTIONS,
} as const;

export function configFromFlags(argv: string[], usage: string): { config: Config; help: boolean } {
  const { values, positionals } = parseFlags(argv, PIPELINE_OPTIONS, usage);
  if (values.help) return { config: parseConfig({}), help: true };
  if (positionals.length > 0) throw new ConfigError(`unexpected argument ${JSON.stringify(positionals[0])}\nusage: ${usage}`);
  const base: ConfigInput = values.config ? structuredClone(loadConfigInput(values.config)) : {};
  if (values.host) base.host = values.host;
  if (values.data) base.data = values.data;
  if (values.clickhouse) base.clickhouse = values.clickhouse;
  if (values.listen) base.listen = values.listen;
  applyServeListen(base, values['serve-listen']);
  applyAlertFlags(base, values);
  base.sources = sourcesFromFlags(base.sources, values);
  const config = parseConfig(base, values.config ?? 'flags');
  if (config.sources.length === 0) throw new ConfigError(`no source: give --tj DIR, --pg DIR, --apdex DIR, --atop PATH, --atop-raw DIR, --atop-spawn SECONDS, --pg-activity URL or a config file with sources\nusage: ${usage}`);
  return { config, help: false };
}

/** `--serve-listen HOST:PORT` moves the ClickHouse interface; its users still come from the config's serve: section. */
export function applyServeListen(base: ConfigInput, listen: string | undefined): void {
  if (listen) base.serve = { ...(base.serve ?? { users: [] }), listen };
}

/**
 * The config file's sources (if any) and those the source flags add (`--tj`, `--pg…`, `--apdex`, `--atop…`,
 * `--pg-activity`), with `--tz`/`--hour` applied: the same for `run`/`ingest` and the agent.
 */
export function sourcesFromFlags(
  configured: ConfigInput['sources'],
  values: { tj?: string[]; tz?: string; hour?: string; apdex?: string[] } & PgFlagValues & AtopFlagValues,
): NonNullable<ConfigInput['sources']> {
  const sources = [...(configured ?? [])];
  for (const location of values.tj ?? []) sources.push({ type: 'tj', location });
  sources.push(...pgSourcesFromFlags(values));
  sources.push(...apdexSourcesFromFlags(values));
  applyTimeFlags(sources, values.tz, values.hour);
  sources.push(...atopSourcesFromFlags(values)); // after the time flags: atop epochs are UTC, --tz does not apply
  return sources;
}
