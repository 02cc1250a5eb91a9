// The producer's single send path: one send at a time, queued segments coalesced, a bound on what waits.
import test from 'ava';
import type { TopicMessages } from 'kafkajs';
import { SendQueue, type Outgoing } from './send-queue.js';

const outgoing = (topic: string, n: number, bytes = 10): Outgoing => ({
  topic, bytes, messages: Array.from({ length: n }, (_, i) => ({ key: topic, value: `${topic}-${i}` })),
});

/** Resolves once `ok` holds, looking after each turn of the event loop (the queue has no I/O of its own). */
async function until(ok: () => boolean, turns = 1000): Promise<void> {
  for (let i = 0; !ok(); i++) {
    if (i >= turns) throw new Error(`not reached in ${turns} turns of the event loop`);
    await new Promise((r) => setImmediate(r));
  }
}

function stubSend() {
  const sends: TopicMessages[][] = [];
  let active = 0;
  let peak = 0;
  let release: () => void = () => {};
  let gate = Promise.resolve();
  return {
    sends,
    get peak() { return peak; },
    hold() { gate = new Promise((resolve) => (release = resolve)); },
    open() { release(); },
    send: async (topicMessages: TopicMessages[]) => {
      active += 1;
      peak = Math.max(peak, active);
      sends.push(topicMessages);
      await gate;
      active -= 1;
    },
  };
}

test('sends never overlap, and what queued meanwhile goes in one coalesced send, in order', async (t) => {
  const stub = stubSend();
  const queue = new SendQueue(stub.send, { maxInFlight: 10, maxBatchBytes: 1000 });
  stub.hold();
  const first = queue.submit(outgoing('a', 1));
  await new Promise((r) => setImmediate(r));
  const rest = [queue.submit(outgoing('b', 2)), queue.submit(outgoing('a', 1)), queue.submit(outgoing('b', 1))];
  await new Promise((r) => setImmediate(r));
  stub.open();
  await Promise.all([first, ...rest]);
  t.is(stub.peak, 1);
  t.is(stub.sends.length, 2);
  t.deepEqual(stub.sends[1]!.map((tm) => [tm.topic, tm.messages.map((m) => m.value)]), [
    ['b', ['b-0', 'b-1', 'b-0']],
    ['a', ['a-0']],
  ]);
});

test('a coalesced send stops at max_batch_bytes; a segment whose messages fit together stays in one send', async (t) => {
  const stub = stubSend();
  const queue = new SendQueue(stub.send, { maxInFlight: 10, maxBatchBytes: 25 });
  stub.hold();
  const all = [queue.submit(outgoing('x', 1, 5))];
  await new Promise((r) => setImmediate(r));
  all.push(queue.submit(outgoing('y', 3, 40)), queue.submit(outgoing('z', 1, 10)), queue.submit(outgoing('w', 1, 10)));
  await new Promise((r) => setImmediate(r));
  stub.open();
  await Promise.all(all);
  t.deepEqual(stub.sends.map((s) => s.map((tm) => `${tm.topic}:${tm.messages.length}`)), [['x:1'], ['y:3'], ['z:1', 'w:1']]);
});

test('a segment larger than max_batch_bytes goes out in consecutive sends, in order, nothing between them', async (t) => {
  const stub = stubSend();
  const queue = new SendQueue(stub.send, { maxInFlight: 10, maxBatchBytes: 25 });
  const big: Outgoing = { topic: 'big', bytes: 60, messages: Array.from({ length: 6 }, (_, i) => ({ key: 'k', value: `value-00${i}` })) };
  stub.hold();
  const all = [queue.submit(big)];
  await new Promise((r) => setImmediate(r));
  all.push(queue.submit(outgoing('after', 1, 5)));
  stub.open();
  await Promise.all(all);
  // 11 bytes a message (value 10 + key 1): two fit under 25.
  t.deepEqual(stub.sends.map((s) => s.map((tm) => `${tm.topic}:${tm.messages.map((m) => String(m.value).at(-1)).join('')}`)), [
    ['big:01'], ['big:23'], ['big:45'], ['after:0'],
  ]);
  t.is(stub.peak, 1);
});

test('beyond max_in_flight, submitters wait until an earlier send was acked', async (t) => {
  const stub = stubSend();
  const queue = new SendQueue(stub.send, { maxInFlight: 2, maxBatchBytes: 1000 });
  stub.hold();
  let settled = 0;
  const all = [1, 2, 3].map((i) => queue.submit(outgoing(`t${i}`, 1)).then(() => void (settled += 1)));
  await until(() => stub.sends.length === 1);
  await new Promise((r) => setImmediate(r)); // the queue's next turn: what it would send or settle now, it has
  t.is(settled, 0);
  t.deepEqual(stub.sends.flat().map((tm) => tm.topic), ['t1']);
  // Ack t1 but hold the next send: t2 goes alone, since t3 had no slot to queue in while t1 was out.
  stub.open();
  stub.hold();
  await until(() => stub.sends.length === 2);
  await new Promise((r) => setImmediate(r));
  t.is(settled, 1);
  t.deepEqual(stub.sends.map((s) => s.map((tm) => tm.topic)), [['t1'], ['t2']]);
  stub.open();
  await Promise.all(all);
  t.deepEqual(stub.sends.map((s) => s.map((tm) => tm.topic)), [['t1'], ['t2'], ['t3']]);
});

test('a failed send rejects every segment it carried; close refuses new work', async (t) => {
  const queue = new SendQueue(async () => { throw new Error('broker gone'); }, { maxInFlight: 4, maxBatchBytes: 1000 });
  await t.throwsAsync(queue.submit(outgoing('a', 1)), { message: 'broker gone' });
  await queue.close();
  await t.throwsAsync(queue.submit(outgoing('a', 1)), { message: 'kafka bus: publish after stop' });
});
