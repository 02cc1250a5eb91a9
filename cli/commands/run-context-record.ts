// `runs start` and `runs stop` record the run's context (docs/runs.md): the host's facts, and PostgreSQL's version,
// settings and extensions through `--pg-activity URL` or the first pg_activity source of `--config FILE`. A server
// that cannot be reached gets one clear line; the run starts or stops all the same.
import { ConfigError } from '../../ingest/errors/errors.js';
import { loadConfigFile } from '../../ingest/config/config.js';
import { readHostContext } from '../../ingest/context/host-context.js';
import { readPgContext } from '../../ingest/context/pg-context.js';
import { recordContext, type ContextFact } from '../../queries/reports/run-context.js';
import type { StoreAccess } from '../../queries/store-access.js';

interface ContextFlags { 'pg-activity'?: string | undefined; config?: string | undefined; host?: string | undefined }

/** The PostgreSQL server and host name to read, from the flags or the config file. */
function targets(values: ContextFlags): { connection: string | null; host: string | undefined } {
  if (values['pg-activity'] !== undefined && values.config !== undefined) throw new ConfigError('--pg-activity and --config exclude each other: the config names the server');
  if (values.config === undefined) return { connection: values['pg-activity'] ?? null, host: values.host };
  const config = loadConfigFile(values.config);
  const source = config.sources.find((x) => x.type === 'pg_activity');
  return { connection: source !== undefined && 'connection' in source ? String(source.connection) : null, host: values.host ?? config.host };
}

/** Records the context and returns the lines that say what was recorded and what could not be. */
export async function recordRunContext(access: StoreAccess, run: string, origin: 'start' | 'stop', values: ContextFlags): Promise<string> {
  const { connection, host } = targets(values);
  const atMs = Date.now();
  const lines: string[] = [];
  const hostContext = await readHostContext(host);
  const facts: ContextFact[] = hostContext.facts.map((f) => ({ scope: `host:${hostContext.host}`, ...f }));
  lines.push(`recorded host ${hostContext.host}: ${hostContext.facts.map((f) => `${f.name} ${f.value.length > 40 ? `${f.value.slice(0, 40)}…` : f.value}`).join(', ')}`);
  if (connection === null) {
    lines.push('PostgreSQL settings not recorded: give --pg-activity URL or a --config with a pg_activity source');
  } else {
    try {
      const pg = await readPgContext(connection);
      facts.push(...pg.facts.map((f) => ({ scope: 'postgresql', ...f })));
      lines.push(`recorded PostgreSQL ${pg.version} at ${connection}: ${pg.settings} settings, ${pg.extensions} extensions`);
    } catch (error) {
      lines.push(`PostgreSQL not reachable at ${connection} (${(error as Error).message}): its settings were not recorded for run ${run}; the run ${origin === 'start' ? 'started' : 'stopped'} all the same`);
    }
  }
  await recordContext(access, run, origin, atMs, facts);
  return `${lines.join('\n')}\n`;
}
