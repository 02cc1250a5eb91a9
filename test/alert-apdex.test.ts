// The APDEX rule: a key operation whose APDEX over the last minutes of measurements falls below its minimum
// level alerts, with the figures; one that stays above, or has too few measurements, does not.
import test from 'ava';
import { rowsOfRecords } from '../ingest/families/registry.js';
import { Metrics } from '../ingest/observe/metrics.js';
import { createAlerter } from '../ingest/alert/index.js';
import type { Segment } from '../ingest/bus/bus.js';
import type { ApdexMeasurement } from '../schemas/apdex-measurement.js';
import { startReceiver } from './support/alert-receiver.js';

const T0 = Date.parse('2026-11-30T10:00:00Z');

function measurement(operation: string, i: number, seconds: number, minLevel: number | null = null): ApdexMeasurement {
  return {
    kind: 'measurement', origin: { host: 'h', source: 'apdex', file: 'e.xml', file_key: 'k', offset: i }, event_id: `e${i}`,
    operation, operation_name: operation, operation_uid: '', target_s: 1, priority: 1, min_level: minLevel, long: null, comment: '',
    ts_start: new Date(T0 + i * 10_000).toISOString(), duration_us: Math.round(seconds * 1e6), weight: 1, user: 'u',
    session_number: null, saved_at: null, failed: null,
  };
}

const segment = (id: string, events: ApdexMeasurement[]): Segment => ({
  id, family: 'apdex', host: 'app-1', source: 'apdex', file: 'e.xml', file_key: 'k', start: 0, end: 1, ...rowsOfRecords('apdex', events), errors: [],
});

test('APDEX below the minimum over the window alerts with its figures; healthy operations do not', async (t) => {
  const rx = await startReceiver();
  t.teardown(() => rx.close());
  let now = T0;
  const alerter = createAlerter({ group_wait_ms: 0, channels: { log: false, webhook: { url: rx.url } } }, { metrics: new Metrics(), now: () => now, manual: true });
  // "Провести": 4 satisfied, 2 tolerating, 6 frustrated of 12 → (4 + 1) / 12 = 0.417 < 0.7 (the default minimum).
  const slow = [0.5, 0.5, 0.5, 0.5, 2, 3, 5, 6, 7, 8, 9, 10].map((s, i) => measurement('Провести', i, s));
  // "Записать": 12 satisfied → 1.0; "Печать": 3 frustrated only, fewer than min_measurements.
  const fast = Array.from({ length: 12 }, (_, i) => measurement('Записать', 100 + i, 0.3));
  const few = [20, 30, 40].map((s, i) => measurement('Печать', 200 + i, s));
  alerter.observe(segment('s1', [...slow, ...fast, ...few]));
  now += 1000;
  await alerter.tick();
  await alerter.stop();
  const alerts = rx.received.flatMap((r) => (r.body as { alerts: Array<{ labels: Record<string, string>; annotations: Record<string, string> }> }).alerts);
  const firing = alerts.filter((a) => a.labels.alertname === 'OneCApdexBelowMinimum');
  t.deepEqual([...new Set(firing.map((a) => a.labels.operation))], ['Провести']);
  t.regex(firing[0]?.annotations.summary ?? '', /^APDEX of key operation Провести is 0\.417 over 5 min \(N=12\), below its minimum 0\.7$/);
});
