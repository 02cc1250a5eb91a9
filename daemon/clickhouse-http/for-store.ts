// ClickHouse's HTTP interface for a daemon's store, when the config has a `serve:` section: only over the embedded
// engine, whose data no other program can reach; a ClickHouse server already answers its own clients.
import type { Store } from '../../ingest/store/clickhouse.js';
import type { ServeConfig } from '../../ingest/config/serve-config.js';
import { ConfigError } from '../../ingest/errors/errors.js';
import { startClickHouseInterface, type ClickHouseInterface } from './server.js';

export async function serveStore(store: Store, serve: ServeConfig | null, data: string): Promise<ClickHouseInterface | null> {
  if (!serve) return null;
  if (!store.openSession) {
    throw new ConfigError(`serve: the store is a ClickHouse server (${store.where}); its clients connect to it directly, so perfpipe serves no HTTP interface of its own (remove serve: or --serve-listen)`);
  }
  try {
    return await startClickHouseInterface({ serve, openSession: store.openSession, data });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      throw new ConfigError(`serve.listen ${serve.listen}: cannot listen there (${code}); another program may hold the port (ClickHouse's own server uses 8123): set serve.listen or --serve-listen`);
    }
    throw error;
  }
}
