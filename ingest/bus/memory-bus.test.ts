// The memory bus against the shared contract, plus what only an in-process bus does (waiting for a consumer).
import test from 'ava';
import { createMemoryBus, MemoryBusConfigSchema } from './memory-bus.js';
import { makeSegment, runBusContract } from '../../test/support/bus-contract.js';
import type { Segment } from './bus.js';

runBusContract(test, {
  name: 'memory',
  acknowledges: 'handler',
  create: ({ maxInFlight }) => createMemoryBus({ max_in_flight: maxInFlight }),
  timeoutMs: 2000,
});

test('memory bus: an empty config gives max_in_flight 4', (t) => {
  t.deepEqual(MemoryBusConfigSchema.parse({}), { max_in_flight: 4 });
});

test('memory bus: a misspelt key is an error', (t) => {
  t.false(MemoryBusConfigSchema.safeParse({ max_inflight: 2 }).success);
});

test('memory bus: publish before consume waits for the consumer to register', async (t) => {
  const bus = createMemoryBus();
  t.teardown(() => bus.stop());
  await bus.start();
  const seen: Segment[] = [];
  const publishing = bus.publish(makeSegment('early', 0, 1));
  await new Promise((resolve) => setTimeout(resolve, 50));
  await bus.consume(async (segment) => void seen.push(segment));
  await publishing;
  t.deepEqual(seen.map((s) => s.file_key), ['early']);
});

test('memory bus: stop with no consumer fails the waiting publishers', async (t) => {
  const bus = createMemoryBus();
  await bus.start();
  const publishing = bus.publish(makeSegment('orphan', 0, 1));
  await bus.stop();
  await t.throwsAsync(publishing, { message: 'memory bus: stopped before a consumer registered' });
});

test('memory bus: stop lets accepted segments finish before it returns', async (t) => {
  const bus = createMemoryBus({ max_in_flight: 1 });
  await bus.start();
  const done: string[] = [];
  await bus.consume(async (segment) => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    done.push(segment.id);
  });
  const publishing = [0, 100, 200].map((start) => bus.publish(makeSegment('f', start, 1)));
  await bus.stop();
  t.is(done.length, 3);
  await Promise.all(publishing);
});
