// Flags of `agent` and `sink`: those of `run` plus `--kafka BROKERS` and `--group ID`, over an optional
// config file. Flags override the file; each role has its own default port so both fit on one host.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from '../../ingest/errors/errors.js';
import { type Config, type ConfigInput, loadConfigInput, parseConfig } from '../../ingest/config/config.js';
import { parseFlags } from './args.js';
import { applyServeListen, PIPELINE_OPTIONS, sourcesFromFlags } from './config-from-flags.js';
import { applyAlertFlags } from './alert-flags.js';

export const ROLE_OPTIONS = {
  ...PIPELINE_OPTIONS,
  kafka: { type: 'string' },
  group: { type: 'string' },
} as const;

export type Role = 'agent' | 'sink';

/** 9650 is `run`'s; an agent and a sink beside it on one host must not collide. */
export const ROLE_LISTEN: Record<Role, string> = { agent: '127.0.0.1:9651', sink: '127.0.0.1:9652' };

export function configForRole(argv: string[], role: Role, usage: string): { config: Config; help: boolean } {
  const { values, positionals } = parseFlags(argv, ROLE_OPTIONS, usage);
  if (values.help) return { config: parseConfig({}), help: true };
  if (positionals.length > 0) throw new ConfigError(`unexpected argument ${JSON.stringify(positionals[0])}\nusage: ${usage}`);
  const base: ConfigInput = values.config ? structuredClone(loadConfigInput(values.config)) : {};
  if (!(values.config && fileSetsListen(values.config))) base.listen = ROLE_LISTEN[role];
  if (values.host) base.host = values.host;
  if (values.data) base.data = values.data;
  if (values.clickhouse) base.clickhouse = values.clickhouse;
  applyAlertFlags(base, values);
  if (values.listen) base.listen = values.listen;
  applyServeListen(base, values['serve-listen']);
  if (values.kafka !== undefined || values.group !== undefined) {
    const bus = base.bus?.type === 'kafka' ? { ...base.bus } : { type: 'kafka' as const };
    if (values.kafka !== undefined) bus.brokers = values.kafka.split(',').map((b) => b.trim()).filter(Boolean);
    if (values.group !== undefined) bus.group_id = values.group;
    base.bus = bus;
  }
  base.sources = sourcesFromFlags(base.sources, values);
  const config = parseConfig(base, values.config ?? 'flags');
  if (config.bus.type !== 'kafka') throw new ConfigError(`${role}: no Kafka bus: give --kafka BROKERS or set bus.type: kafka in the config file\nusage: ${usage}`);
  if (role === 'agent' && config.sources.length === 0) throw new ConfigError(`agent: no source: give --tj DIR or a config file with sources\nusage: ${usage}`);
  return { config, help: false };
}

function fileSetsListen(path: string): boolean {
  const raw = parseYaml(readFileSync(path, 'utf8')) as Record<string, unknown> | null;
  return raw !== null && typeof raw === 'object' && 'listen' in raw;
}
