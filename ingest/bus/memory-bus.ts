// The in-process bus of the embedded default: publish hands the segment straight to the consumer and
// resolves only once the consumer's handler resolved (acknowledge, then checkpoint — bus.ts).
import { z } from 'zod';
import type { Bus, Segment, SegmentHandler } from './bus.js';
import { BusError } from './bus-error.js';
import { Slots } from './slots.js';

export const MemoryBusConfigSchema = z.strictObject({
  /** Segments handed to the handler and not yet acknowledged, at most; further publishers wait. Default 4. */
  max_in_flight: z.number().int().positive().default(4),
});
export type MemoryBusConfig = z.infer<typeof MemoryBusConfigSchema>;

type State = 'new' | 'running' | 'stopping' | 'stopped';

export function createMemoryBus(input: z.input<typeof MemoryBusConfigSchema> = {}): Bus {
  const config = MemoryBusConfigSchema.parse(input);
  const slots = new Slots(config.max_in_flight);
  const pending = new Set<Promise<void>>();
  let consumerWaiters: Array<{ resolve: (h: SegmentHandler) => void; reject: (e: Error) => void }> = [];
  let handler: SegmentHandler | undefined;
  let state: State = 'new';
  let stopped: Promise<void> | undefined;

  const stoppedError = () => new BusError('memory bus: publish after stop', { permanent: true });

  const noConsumer = () => new BusError('memory bus: stopped before a consumer registered', { permanent: true });

  function consumer(): Promise<SegmentHandler> {
    if (handler) return Promise.resolve(handler);
    if (state !== 'running') return Promise.reject(noConsumer());
    return new Promise((resolve, reject) => consumerWaiters.push({ resolve, reject }));
  }

  async function deliver(segment: Segment): Promise<void> {
    await slots.acquire();
    try {
      const handle = await consumer();
      await handle(segment);
    } finally {
      slots.release();
    }
  }

  async function drain(): Promise<void> {
    state = 'stopping';
    // Without a consumer nothing held can ever be delivered: fail those publishers so their sources
    // keep the range unacknowledged and replay it on the next run.
    if (!handler) {
      for (const waiter of consumerWaiters.splice(0)) waiter.reject(noConsumer());
      slots.close(noConsumer());
    }
    await Promise.allSettled([...pending]);
    slots.close(stoppedError());
    state = 'stopped';
  }

  return {
    kind: 'memory',
    async start() {
      if (state === 'new') state = 'running';
      else if (state !== 'running') throw new BusError('memory bus: cannot start after stop', { permanent: true });
    },
    publish(segment) {
      if (state !== 'running') {
        const message = state === 'new' ? 'memory bus: publish before start' : 'memory bus: publish after stop';
        return Promise.reject(new BusError(message, { permanent: true, context: { segment: segment.id } }));
      }
      const delivery = deliver(segment);
      pending.add(delivery);
      const forget = () => pending.delete(delivery);
      delivery.then(forget, forget);
      return delivery;
    },
    async consume(next) {
      if (state !== 'running') throw new BusError('memory bus: consume needs a running bus', { permanent: true });
      if (handler) throw new BusError('memory bus: a consumer is already registered', { permanent: true });
      handler = next;
      const waiters = consumerWaiters;
      consumerWaiters = [];
      for (const waiter of waiters) waiter.resolve(next);
    },
    stop() {
      if (state === 'new') state = 'stopped';
      stopped ??= state === 'stopped' ? Promise.resolve() : drain();
      return stopped;
    },
  };
}
