// The single path to an idempotent kafkajs producer. kafkajs allows only one in-flight send per idempotent
// producer (concurrent sends fail with "out of order sequence number", tulios/kafkajs#598), so every send
// goes through this queue one at a time; what queued up meanwhile is coalesced into the next `sendBatch`.
import type { Message, TopicMessages } from 'kafkajs';
import { BusError } from './bus-error.js';
import { Slots } from './slots.js';

export interface Outgoing {
  topic: string;
  /**
   * Sent contiguously, in this order: in one send when they fit `maxBatchBytes`, else in consecutive sends of
   * at most that size with nothing between them (a broker refuses a partition batch above message.max.bytes;
   * a segment cut short by a failure is sent again whole, and the consumer drops the partial copy).
   */
  messages: Message[];
  bytes: number;
}

/** Bytes a message adds to a produce request (value and key; headers are small and bounded). */
export function messageBytes(m: Message): number {
  const size = (v: Message['value'] | Message['key']): number => (v == null ? 0 : typeof v === 'string' ? Buffer.byteLength(v) : v.length);
  return size(m.value) + size(m.key);
}

export type SendBatch = (topicMessages: TopicMessages[]) => Promise<void>;

interface Queued {
  outgoing: Outgoing;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class SendQueue {
  readonly #slots: Slots;
  readonly #queue: Queued[] = [];
  #pumping: Promise<void> | undefined;
  #closed = false;

  constructor(
    private readonly send: SendBatch,
    private readonly options: { maxInFlight: number; maxBatchBytes: number },
  ) {
    this.#slots = new Slots(options.maxInFlight);
  }

  /** Resolves once the broker acked the send that carried `outgoing`; waits while the queue is full. */
  async submit(outgoing: Outgoing): Promise<void> {
    if (this.#closed) throw new BusError('kafka bus: publish after stop', { permanent: true });
    await this.#slots.acquire();
    try {
      await new Promise<void>((resolve, reject) => {
        this.#queue.push({ outgoing, resolve, reject });
        this.#pumping ??= this.#pump().finally(() => (this.#pumping = undefined));
      });
    } finally {
      this.#slots.release();
    }
  }

  /** Refuses new work and waits until everything accepted was sent (or failed). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#slots.close(new BusError('kafka bus: publish after stop', { permanent: true }));
    while (this.#pumping) await this.#pumping;
  }

  async #pump(): Promise<void> {
    while (this.#queue.length > 0) {
      if (this.#queue[0]!.outgoing.bytes > this.options.maxBatchBytes) {
        await this.#sendInChunks(this.#queue.shift()!);
        continue;
      }
      const batch = this.#take();
      const byTopic = new Map<string, Message[]>();
      for (const { outgoing } of batch) {
        const messages = byTopic.get(outgoing.topic) ?? [];
        messages.push(...outgoing.messages);
        byTopic.set(outgoing.topic, messages);
      }
      try {
        await this.send([...byTopic].map(([topic, messages]) => ({ topic, messages })));
        for (const item of batch) item.resolve();
      } catch (error) {
        for (const item of batch) item.reject(error);
      }
    }
  }

  async #sendInChunks(item: Queued): Promise<void> {
    const { topic, messages } = item.outgoing;
    try {
      for (let i = 0; i < messages.length; ) {
        const chunk: Message[] = [];
        let bytes = 0;
        for (; i < messages.length; i++) {
          const size = messageBytes(messages[i]!);
          if (chunk.length > 0 && bytes + size > this.options.maxBatchBytes) break;
          bytes += size;
          chunk.push(messages[i]!);
        }
        await this.send([{ topic, messages: chunk }]);
      }
      item.resolve();
    } catch (error) {
      item.reject(error);
    }
  }

  #take(): Queued[] {
    const batch: Queued[] = [this.#queue.shift()!];
    let bytes = batch[0]!.outgoing.bytes;
    while (this.#queue.length > 0 && bytes + this.#queue[0]!.outgoing.bytes <= this.options.maxBatchBytes) {
      const next = this.#queue.shift()!;
      bytes += next.outgoing.bytes;
      batch.push(next);
    }
    return batch;
  }
}
