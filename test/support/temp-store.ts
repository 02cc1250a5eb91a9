// A migrated embedded store in a fresh temporary directory, for a test file that talks to ClickHouse directly.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../ingest/store/clickhouse.js';
import { migrate } from '../../ingest/store/migrations.js';

export interface TempStore extends Store {
  /** Closes the store and removes its directory. */
  dispose(): Promise<void>;
}

export async function openTempStore(prefix: string): Promise<TempStore> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const store = await openStore({ data: dir });
  await migrate(store);
  return {
    ...store,
    async dispose() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
