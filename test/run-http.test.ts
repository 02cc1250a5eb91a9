// The `run` daemon's local port: health, readiness, Prometheus metrics, and /sql only with the token
// from the private daemon file in the data directory.
import test from 'ava';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDaemon } from './support/daemon.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-http-'));
test.after.always(() => rmSync(work, { recursive: true, force: true }));

test('health, ready, metrics and token-guarded sql on the daemon port', async (t) => {
  const loc = join(work, 'tj');
  mkdirSync(join(loc, 'rphost_9'), { recursive: true });
  writeFileSync(join(loc, 'rphost_9', '26113014.log'), '00:01.000000-5,CALL,1,Usr=a\n00:02.000000-7,TLOCK,2,Usr=b\n');
  const data = join(work, 'data');
  const daemon = await startDaemon(['run', '--tj', loc, '--tz', 'UTC', '--data', data]);
  t.teardown(() => daemon.stop('SIGKILL'));
  t.is(await (await fetch(`${daemon.url}/health`)).text(), 'ok\n');
  t.is((await fetch(`${daemon.url}/ready`)).status, 200);
  const file = join(data, 'daemon.json');
  t.is(statSync(file).mode & 0o777, 0o600, 'the token file is private');
  const { token } = JSON.parse(readFileSync(file, 'utf8')) as { token: string };
  const ask = (auth?: string) => fetch(`${daemon.url}/sql?format=csv`, {
    method: 'POST', body: 'SELECT event, user FROM tj_events ORDER BY ts', headers: auth ? { authorization: auth } : {},
  });
  t.is((await ask()).status, 401);
  t.is((await ask('Bearer wrong')).status, 401);
  let text = '';
  for (let i = 0; i < 100 && !text.includes('TLOCK'); i++) {
    text = await (await ask(`Bearer ${token}`)).text();
    await new Promise((r) => setTimeout(r, 100));
  }
  t.is(text, '"event","user"\n"CALL","a"\n"TLOCK","b"\n');
  const metrics = await (await fetch(`${daemon.url}/metrics`)).text();
  t.regex(metrics, /^perfpipe_events_total\{source="tj"\} 2$/m);
  t.regex(metrics, /^perfpipe_rows_inserted_total\{table="tj_events"\} 2$/m);
  t.is(await daemon.stop('SIGTERM'), 0);
});
