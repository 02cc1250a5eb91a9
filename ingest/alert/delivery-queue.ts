// One channel's outbox: notices wait here until the receiver takes them, retried with exponential
// backoff, bounded in size and in age; every notice given up is reported, never silently lost.
import type { AlertNotice } from './alert-groups.js';
import type { SendBatch } from './alert-channels.js';
import type { AlertConfig } from './config.js';
import { AlertDeliveryError } from './delivery-error.js';
import { backoffMs } from '../retry/backoff.js';

interface Entry {
  notice: AlertNotice;
  queuedAt: number;
  nextAt: number;
  attempts: number;
}

export interface DeliveryHooks {
  sent(count: number): void;
  failed(count: number, error: AlertDeliveryError): void;
  dropped(notice: AlertNotice, reason: 'gave_up' | 'rejected' | 'queue_full' | 'stopped', detail: string): void;
}

/**
 * Keyed by fingerprint: a newer notice of a group replaces the one still waiting (its count and
 * examples include everything the older had, and Alertmanager keeps only the latest annotations),
 * keeping the older one's place, age and backoff. So an outage of hours holds one entry per group.
 */
export class DeliveryQueue {
  readonly #entries = new Map<string, Entry>();

  constructor(readonly channel: string, private readonly send: SendBatch,
    private readonly config: AlertConfig['delivery'], private readonly hooks: DeliveryHooks) {}

  get size(): number {
    return this.#entries.size;
  }

  enqueue(notice: AlertNotice, now: number): void {
    const prev = this.#entries.get(notice.fingerprint);
    if (prev) { prev.notice = notice; return; }
    if (this.#entries.size >= this.config.max_queue) {
      const [fp, oldest] = this.#entries.entries().next().value!;
      this.#entries.delete(fp);
      this.hooks.dropped(oldest.notice, 'queue_full', `the ${this.channel} queue holds ${this.config.max_queue} notices`);
    }
    this.#entries.set(notice.fingerprint, { notice, queuedAt: now, nextAt: now, attempts: 0 });
  }

  /** Sends every due notice in batches; stops at the first failure (the receiver is likely down). */
  async pump(now: number, ignoreBackoff = false): Promise<void> {
    for (;;) {
      const batch = [...this.#entries.values()].filter((e) => ignoreBackoff || e.nextAt <= now).slice(0, this.config.max_batch);
      if (batch.length === 0) return;
      try {
        await this.send(batch.map((e) => e.notice), now);
      } catch (err) {
        this.#failed(batch, now, err instanceof AlertDeliveryError ? err : new AlertDeliveryError(String(err), this.channel, { cause: err }));
        return;
      }
      for (const e of batch) if (this.#entries.get(e.notice.fingerprint) === e) this.#entries.delete(e.notice.fingerprint);
      this.hooks.sent(batch.length);
    }
  }

  /** Drops what is still queued (at stop, after a last attempt). */
  abandon(): void {
    for (const e of this.#entries.values()) this.hooks.dropped(e.notice, 'stopped', `still undelivered to ${this.channel} at stop after ${e.attempts} attempt(s)`);
    this.#entries.clear();
  }

  #failed(batch: Entry[], now: number, err: AlertDeliveryError): void {
    this.hooks.failed(batch.length, err);
    const c = this.config;
    for (const e of batch) {
      e.attempts++;
      if (err.permanent || now - e.queuedAt >= c.give_up_after_ms) {
        this.#entries.delete(e.notice.fingerprint);
        this.hooks.dropped(e.notice, err.permanent ? 'rejected' : 'gave_up', `${e.attempts} attempt(s) over ${now - e.queuedAt} ms; last error: ${err.message}`);
      } else {
        e.nextAt = now + backoffMs(e.attempts, c.backoff_initial_ms, c.backoff_max_ms);
      }
    }
  }
}
