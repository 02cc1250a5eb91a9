// The embedded engine as openStore starts it: its server configuration given when it starts and seen by the
// client's connection, released at close so the next directory can be opened, and refused with a message naming
// who holds it when another process has the directory.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EMBEDDED_ENGINE_ARGS, EMBEDDED_ENGINE_MALLOC_CONF, openStore } from './clickhouse.js';
import { startDaemon } from '../../test/support/daemon.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-store-'));
test.after.always(() => rmSync(work, { recursive: true, force: true }));

async function serverSettings(data: string): Promise<Record<string, string>> {
  const store = await openStore({ data });
  try {
    const rs = await store.client.query({ query: 'SELECT name, value FROM system.server_settings WHERE changed', format: 'JSONEachRow' });
    return Object.fromEntries((await rs.json<{ name: string; value: string }>()).map((r) => [r.name, r.value]));
  } finally {
    await store.close();
  }
}

test.serial('the engine starts with its thread pools bounded, and closing it frees the process for another directory', async (t) => {
  const wanted = Object.fromEntries(EMBEDDED_ENGINE_ARGS.map((a) => a.replace(/^--/, '').split('=') as [string, string]));
  t.true(Object.keys(wanted).length >= 2);
  // One engine per process and per directory: a second directory opens only if the first engine was torn down.
  for (const name of ['first', 'second']) {
    const settings = await serverSettings(join(work, name));
    for (const [key, value] of Object.entries(wanted)) t.is(settings[key], value, `${name}: ${key}`);
  }
});

test.serial('a directory another process holds is refused after the wait, saying what holds it', async (t) => {
  const data = join(work, 'held');
  const tj = join(work, 'tj');
  const daemon = await startDaemon(['run', '--tj', tj, '--tz', 'UTC', '--data', data]);
  try {
    await t.throwsAsync(openStore({ data }, process.env, 300), { message: new RegExp(`data directory \\S*held\\S* is in use by process ${daemon.child.pid} \\(.* run --tj ${tj} `) });
  } finally {
    await daemon.stop('SIGKILL');
  }
});

test.serial('the engine\'s allocator gets perfpipe\'s options and then the user\'s JE_MALLOC_CONF, as the library loads', (t) => {
  // jemalloc aborts at start on an unknown option when abort_conf is on: the user's pair, set in this process's
  // environment before openStore, reaches the allocator only if the engine is loaded after openStore composes the
  // options, and perfpipe's own pairs are read the same way. The variable is unset again once the engine is up.
  const probe = join(work, 'probe.mjs');
  writeFileSync(probe, [
    `const { openStore } = await import(${JSON.stringify(fileURLToPath(new URL('./clickhouse.js', import.meta.url)))});`,
    'if (process.argv[2]) process.env.JE_MALLOC_CONF = process.argv[2];',
    `const store = await openStore({ data: ${JSON.stringify(join(work, 'probe'))} });`,
    'console.log(JSON.stringify({ after: process.env.JE_MALLOC_CONF ?? null }));',
    'await store.close();',
  ].join('\n'));
  const env = { ...process.env };
  delete env.JE_MALLOC_CONF;
  const run = (conf?: string) => spawnSync(process.execPath, ['--import', 'tsx', probe, ...(conf ? [conf] : [])], { encoding: 'utf8', env });
  const plain = run();
  t.is(plain.status, 0, plain.stderr);
  t.deepEqual(JSON.parse(plain.stdout.trim().split('\n').at(-1)!), { after: null });
  const refused = run('abort_conf:true,no_such_option:1');
  t.is(refused.signal, 'SIGABRT', refused.stderr);
  // abort_conf judges every pair read, perfpipe's included: these are options this jemalloc knows.
  const strict = run('abort_conf:true');
  t.is(strict.status, 0, `${EMBEDDED_ENGINE_MALLOC_CONF}: ${strict.stderr}`);
  t.deepEqual(JSON.parse(strict.stdout.trim().split('\n').at(-1)!), { after: 'abort_conf:true' });
});
