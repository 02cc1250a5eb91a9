// Sends one statement to a running `perfpipe run` (or sink) through its /sql port, as the CLI does while the
// daemon holds the embedded data directory. A daemon still opening its store answers 503: wait for it (up to
// a minute) rather than race it for the directory's lock.
import { ConfigError } from '../ingest/errors/errors.js';
import type { DaemonInfo } from './daemon-file.js';
import { sleep } from '../ingest/retry/sleep.js';

export async function daemonSql(daemon: DaemonInfo, query: string, format: string, params: Record<string, string | number> = {}): Promise<string> {
  const url = new URL(`${daemon.url}/sql`);
  url.searchParams.set('format', format);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(`param_${k}`, String(v));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await fetch(url, { method: 'POST', body: query, headers: { authorization: `Bearer ${daemon.token}` } });
    const text = await res.text();
    if (res.status === 503 && Date.now() < deadline) { await sleep(200); continue; }
    if (!res.ok) throw new ConfigError(`the perfpipe daemon (pid ${daemon.pid}) answered: ${text.trim()}`);
    return text;
  }
}
