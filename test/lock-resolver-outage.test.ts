// The lock resolver of a sink whose store goes away (docs/write-path.md §11): its passes fail while the store is
// down and are tried again at every tick; the outage is said twice, when the first pass fails and when one works
// again, however many fail in between (issue 27: a store killed and restarted is logged once, not once a second).
// A real `perfpipe serve` is stopped and started again on the same data and port, under a real client.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startDaemon, waitFor, type Daemon } from './support/daemon.js';
import { PASSWORD_ENV, serveSection, WRITER } from './support/clickhouse-serve.js';
import { openStore, type Store } from '../ingest/store/clickhouse.js';
import { migrate } from '../ingest/store/migrations.js';
import { startLockResolver } from '../ingest/locks/lock-resolver.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-resolver-outage-'));
let serve: Daemon | undefined;
let store: Store | undefined;
test.after.always(async () => {
  await store?.close();
  await serve?.stop('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

test('a store down for many passes is two warnings: the first failure, and the pass that works again', async (t) => {
  const port = await freePort();
  const config = join(work, 'serve.yaml');
  writeFileSync(config, serveSection(`127.0.0.1:${port}`));
  const startServe = (): Promise<Daemon> => startDaemon(['serve', '--data', join(work, 'data'), '--config', config], 120_000, PASSWORD_ENV);
  serve = await startServe();
  store = await openStore({ clickhouse: `http://${WRITER.user}@127.0.0.1:${port}` }, { PERFPIPE_CLICKHOUSE_PASSWORD: WRITER.password });
  await migrate(store);
  await serve.stop('SIGKILL');

  const said: Array<{ message: string; error?: string }> = [];
  const resolver = startLockResolver({
    client: store.client, mode: 'follow', intervalMs: 100, warn: (message, error) => said.push({ message, ...(error ? { error: error.message } : {}) }),
  });
  await waitFor(() => resolver.stats.failedPasses >= 10 || said.length >= 10, 'ten failed passes', 60_000, 50);
  serve = await startServe();
  await waitFor(() => said.length >= 2, 'a pass that works again', 60_000, 50);
  await resolver.stop();
  t.is(said.length, 2, `${said.length} lines, the first: ${JSON.stringify(said.slice(0, 3))}`);
  t.like(said[0], { message: 'lock episodes: a resolver pass failed; trying again (logged again when a pass works)' });
  t.regex(said[0]?.error ?? '', /ECONNREFUSED/);
  t.regex(said[1]?.message ?? '', /^lock episodes: resolver passes work again after (\d+) failed$/);
  t.true(Number(/after (\d+)/.exec(said[1]?.message ?? '')?.[1]) >= 10);
  t.is(said[1]?.error, undefined);
});
