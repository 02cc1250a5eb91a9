// The contract every Bus passes (docs/style.md §3): one suite, run on the memory bus and on a real Kafka broker.
// Where the two differ by design — what a resolved publish means — the suite checks each one's promise.
import type { TestFn } from 'ava';
import type { Bus, Family, Segment } from '../../ingest/bus/bus.js';
import { segmentId } from '../../ingest/bus/bus.js';
import { BusError } from '../../ingest/bus/bus-error.js';
import type { IngestError } from '../../schemas/ingest-error.js';
import { rowsOfRecords } from '../../ingest/families/registry.js';

export interface BusContract {
  name: string;
  /** `handler`: publish resolves once the consumer handled the segment; `broker`: once Kafka acked it. */
  acknowledges: 'handler' | 'broker';
  /** An unstarted bus; buses created with the same `shared` see one stream (Kafka: same topics and group). */
  create(options: { shared: string; maxInFlight: number }): Bus;
  /** Upper bound for a delivery to arrive, in ms. */
  timeoutMs: number;
}

let sequence = 0;

export function makeSegment(fileKey: string, start: number, events: number, errors = 0, family: Family = 'tj'): Segment {
  const host = 'db1';
  const end = start + 100;
  const file = `/var/log/1c/${fileKey}.log`;
  const error = (i: number): IngestError => ({
    host, source: family, file, file_key: fileKey, offset: start + i, length: 3, kind: 'garbage_line',
    reason: `line ${i} is not a TJ event`, excerpt: `é${i}\u0000"`, can_continue: true,
  });
  // Real TJ rows, as a source encodes them: the bus carries their bytes and must hand them on unchanged.
  const tj = Array.from({ length: events }, (_, i) => ({
    event: 'CALL', ts: '2026-03-02T07:00:01.000001Z', ts_start: '2026-03-02T07:00:01.000000Z', duration_us: i, depth: 1,
    properties: ['Usr', `ev ${i} «кириллица»`, 'Context', `Модуль.Ф : ${start}\n\t${i}`], origin: { host, source: family, file, file_key: fileKey, offset: start + i }, length: 9,
  }));
  return {
    id: segmentId(host, fileKey, start, end), family, host, source: family, file, file_key: fileKey, start, end,
    ...rowsOfRecords('tj', tj),
    errors: Array.from({ length: errors }, (_, i) => error(i)),
  };
}

/** A deep copy the sender keeps (a segment handed on is never touched again); bodies stay Buffers. */
export function copyOf(segment: Segment): Segment {
  return { ...segment, tables: segment.tables.map((t) => ({ ...t, body: Buffer.from(t.body) })), errors: structuredClone(segment.errors) };
}

export async function eventually(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The source's side of "the caller retries": publish again until the bus accepts the segment. */
async function publishUntilAccepted(bus: Bus, segment: Segment, attempts = 10): Promise<number> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await bus.publish(copyOf(segment));
      return attempt;
    } catch (error) {
      if (attempt >= attempts) throw error;
    }
  }
}

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

export function runBusContract(test: TestFn, contract: BusContract): void {
  const fresh = (maxInFlight = 4) => {
    const bus = contract.create({ shared: `${contract.name}-${process.pid}-${++sequence}`, maxInFlight });
    return bus;
  };
  const title = (text: string) => `${contract.name} bus: ${text}`;

  test(title('a round trip keeps events, errors and the order of segments within a file'), async (t) => {
    const bus = fresh();
    t.teardown(() => bus.stop());
    await bus.start();
    const seen: Segment[] = [];
    await bus.consume(async (segment) => void seen.push(segment));
    const sent = [
      makeSegment('a', 0, 3, 1), makeSegment('b', 0, 2, 0, 'pg'), makeSegment('a', 100, 0, 2),
      makeSegment('a', 200, 0, 0), makeSegment('a', 300, 5), makeSegment('c', 0, 1, 0, 'atop'),
    ];
    await Promise.all(sent.map((segment) => bus.publish(copyOf(segment))));
    await eventually(() => seen.length >= sent.length, contract.timeoutMs, 'all segments');
    t.deepEqual(new Set(seen.map((s) => s.id)).size, sent.length);
    for (const segment of sent) t.deepEqual(seen.find((s) => s.id === segment.id), segment);
    t.deepEqual(seen.filter((s) => s.file_key === 'a').map((s) => s.start), [0, 100, 200, 300]);
  });

  if (contract.acknowledges === 'handler') {
    test(title('publish resolves only after the handler resolved'), async (t) => {
      const bus = fresh();
      t.teardown(() => bus.stop());
      await bus.start();
      const release = gate();
      let entered = false;
      let handled = false;
      await bus.consume(async () => {
        entered = true;
        await release.opened;
        handled = true;
      });
      let settled = false;
      const publishing = bus.publish(makeSegment('a', 0, 1)).finally(() => (settled = true));
      await eventually(() => entered, contract.timeoutMs, 'the handler to be called');
      await new Promise((resolve) => setImmediate(resolve));
      t.false(settled, 'the handler is running and the publish has not resolved');
      release.open();
      await publishing;
      t.true(handled);
    });
  } else {
    test(title('a resolved publish is durable: a consumer started later still receives the segment'), async (t) => {
      const shared = `${contract.name}-${process.pid}-${++sequence}`;
      const producer = contract.create({ shared, maxInFlight: 4 });
      const consumer = contract.create({ shared, maxInFlight: 4 });
      t.teardown(async () => void (await Promise.all([producer.stop(), consumer.stop()])));
      await producer.start();
      const segment = makeSegment('durable', 0, 2, 1);
      await producer.publish(copyOf(segment));
      await producer.stop();
      await consumer.start();
      const seen: Segment[] = [];
      await consumer.consume(async (s) => void seen.push(s));
      await eventually(() => seen.length > 0, contract.timeoutMs, 'the segment published before');
      t.deepEqual(seen, [segment]);
    });
  }

  test(title('a segment whose handler failed is delivered again, never lost'), async (t) => {
    const bus = fresh();
    t.teardown(() => bus.stop());
    await bus.start();
    const attempts = new Map<string, number>();
    const handled = new Set<string>();
    await bus.consume(async (segment) => {
      const n = (attempts.get(segment.id) ?? 0) + 1;
      attempts.set(segment.id, n);
      if (segment.file_key === 'flaky' && n < 3) throw new Error(`insert failed (attempt ${n})`);
      handled.add(segment.id);
    });
    const flaky = makeSegment('flaky', 0, 2);
    const steady = [makeSegment('steady', 0, 1), makeSegment('steady', 100, 1)];
    if (contract.acknowledges === 'handler') {
      await t.throwsAsync(bus.publish(copyOf(flaky)), { message: 'insert failed (attempt 1)' });
    }
    await Promise.all([flaky, ...steady].map((segment) => publishUntilAccepted(bus, segment)));
    await eventually(() => handled.size === 3, contract.timeoutMs, 'every segment handled');
    t.is(attempts.get(flaky.id), 3);
    t.true(handled.has(flaky.id));
  });

  test(title('at most the configured number of segments are in flight; the rest wait'), async (t) => {
    const maxInFlight = 2;
    const bus = fresh(maxInFlight);
    t.teardown(() => bus.stop());
    await bus.start();
    const release = gate();
    let active = 0;
    let peak = 0;
    const done = new Set<string>();
    await bus.consume(async (segment) => {
      active += 1;
      peak = Math.max(peak, active);
      await release.opened;
      active -= 1;
      done.add(segment.id);
    });
    const segments = Array.from({ length: maxInFlight + 3 }, (_, i) => makeSegment('bounded', i * 100, 1));
    let settled = 0;
    const publishing = segments.map((s) => bus.publish(copyOf(s)).finally(() => (settled += 1)));
    await eventually(() => active > 0, contract.timeoutMs, 'the first delivery');
    if (contract.acknowledges === 'handler') {
      // Every publish was made: the bus fills its slots, and the rest wait for one.
      await eventually(() => active === maxInFlight, contract.timeoutMs, `${maxInFlight} handlers running`);
      await new Promise((resolve) => setImmediate(resolve));
      t.is(settled, 0);
    } else {
      // The broker holds every segment, so the consumer could take them all: it keeps to its limit.
      await eventually(() => settled === segments.length, contract.timeoutMs, 'every segment acknowledged by the broker');
    }
    t.true(active <= maxInFlight, `${active} handlers active`);
    release.open();
    await Promise.all(publishing);
    await eventually(() => done.size === segments.length, contract.timeoutMs, 'all bounded segments');
    t.true(peak <= maxInFlight, `peak ${peak}`);
  });

  test(title('stop is safe before start and twice; publish before start or after stop is refused'), async (t) => {
    const idle = fresh();
    await idle.stop();
    await idle.stop();
    const bus = fresh();
    await t.throwsAsync(bus.publish(makeSegment('x', 0, 1)), { instanceOf: BusError });
    await bus.start();
    await Promise.all([bus.stop(), bus.stop()]);
    await bus.stop();
    const refused = await t.throwsAsync(bus.publish(makeSegment('x', 0, 1)), { instanceOf: BusError });
    t.true(refused?.permanent);
  });
}
