import test from 'ava';
import { AlertConfigSchema } from './config.js';

test('an empty alerts config gives the documented defaults', (t) => {
  t.deepEqual(AlertConfigSchema.parse({}), {
    rules: {
      ttimeout: { enabled: true, severity: 'warning' },
      tdeadlock: { enabled: true, severity: 'critical' },
      lock_exception: { enabled: true, severity: 'warning', patterns: ['TLockException', 'Конфликт блокировок', 'Lock conflict'] },
      lock_wait_rate: { enabled: true, severity: 'warning', per_minute: 100 },
      pg_lock_timeout: { enabled: true, severity: 'warning' },
      pg_deadlock: { enabled: true, severity: 'critical' },
      pg_lock_wait: { enabled: true, severity: 'warning', threshold_ms: 5000 },
      pg_blocked: { enabled: true, severity: 'warning', threshold_ms: 5000 },
      apdex_below_minimum: { enabled: true, severity: 'warning', window_minutes: 5, min_measurements: 10, default_min_level: 0.7 },
    },
    channels: { log: true, webhook: null, alertmanager: null, clickhouse: true, kafka: true },
    delivery: { backoff_initial_ms: 1000, backoff_max_ms: 60_000, give_up_after_ms: 1_800_000, max_queue: 1000, max_batch: 100, timeout_ms: 10_000 },
    group_wait_ms: 500,
    group_interval_ms: 300_000,
    resolve_after_ms: 300_000,
    max_groups: 1000,
    max_examples: 5,
    index_max_entries: 100_000,
    tick_ms: 250,
  });
});

test('an Alertmanager channel fills its re-send period; a non-http URL is refused', (t) => {
  t.deepEqual(AlertConfigSchema.parse({ channels: { alertmanager: { url: 'http://127.0.0.1:9093' } } }).channels.alertmanager,
    { url: 'http://127.0.0.1:9093', resend_ms: 60_000 });
  const r = AlertConfigSchema.safeParse({ channels: { webhook: { url: 'ftp://x' } } });
  t.false(r.success);
  t.is(r.error?.issues[0]?.message, 'expected an http(s) URL, e.g. "http://127.0.0.1:9093"');
});
