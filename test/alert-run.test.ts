// The bar, as a user meets it: a TTIMEOUT appended to a watched TJ file on the embedded default
// reaches the webhook within seconds, naming the culprit connection with its user and context.
import test from 'ava';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { httpGet, startDaemon, waitFor } from './support/daemon.js';
import { startReceiver } from './support/alert-receiver.js';

const work = mkdtempSync(join(tmpdir(), 'perfpipe-alert-run-'));
test.after.always(() => rmSync(work, { recursive: true, force: true }));

test('a TTIMEOUT appended to a watched file reaches the webhook with its culprit named', async (t) => {
  const rx = await startReceiver();
  t.teardown(() => rx.close());
  const loc = join(work, 'tj');
  mkdirSync(join(loc, 'rphost_7'), { recursive: true });
  const file = join(loc, 'rphost_7', '26113014.log');
  writeFileSync(file, "\uFEFF10:00.000001-2500000,CALL,2,p:processName=erp_load,t:connectID=18,Usr=Петров,Context='Документ.РеализацияТоваровУслуг.Записать'\n");
  const daemon = await startDaemon(['run', '--tj', loc, '--tz', 'UTC', '--data', join(work, 'data'), '--alert-webhook', `${rx.url}/hook`]);
  t.teardown(() => daemon.stop('SIGKILL'));
  // The culprit's CALL must be read and indexed before the timeout names it: wait for the daemon to count it.
  await waitFor(async () => /^perfpipe_events_total\{source="tj"\} 1$/m.test((await httpGet(`${daemon.url}/metrics`)).text), 'the CALL read', 30_000, 50);
  const appendedAt = Date.now();
  appendFileSync(file, '10:20.000002-0,TTIMEOUT,5,p:processName=erp_load,t:connectID=19,SessionID=4,Usr=Иванов,WaitConnections=18,Context=Форма.Записать : Документ.ПоступлениеТоваров\n');
  while (rx.received.length === 0 && Date.now() - appendedAt < 20_000) await new Promise((r) => setTimeout(r, 20));
  const latency = Date.now() - appendedAt;
  t.log(`TTIMEOUT appended → webhook: ${latency} ms`);
  t.true(rx.received.length > 0, 'a notification arrived');
  const body = rx.received[0]?.body as { source: string; alerts: Array<{ status: string; labels: Record<string, string>; annotations: Record<string, string> }> };
  t.is(body.source, 'perfpipe');
  t.is(body.alerts.length, 1);
  const [alert] = body.alerts;
  t.is(alert!.status, 'firing');
  t.like(alert!.labels, { alertname: 'OneCLockTimeout', infobase: 'erp_load' });
  t.like(alert!.annotations, {
    count: '1', last_victim_connection: '19', last_victim_user: 'Иванов', last_culprit_connections: '18',
    last_culprits: 'connection 18 (user Петров; context Документ.РеализацияТоваровУслуг.Записать; last event CALL at 2026-11-30T14:10:00.000001Z)',
  });
  t.is(await daemon.stop('SIGTERM'), 0);
});
